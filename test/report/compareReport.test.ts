/**
 * The compare report as text: self-contained, every name a study chose escaped, the paired figures
 * with their intervals (or, for one seed, without and saying so), and each compute's lanes paired
 * across the configurations, cut at whole computes when there are too many to draw.
 */
import { describe, expect, it } from 'vitest';
import type { ComputeLane } from '../../src/projection/computeLanes.js';
import { pairedLanes, wholeGroups } from '../../src/report/html/pairedLanes.js';
import { FIGURES } from '../../src/study/figures.js';
import { compareReportOf } from '../support/compareReportOf.js';
import tiny from '../fixtures/tinyStudy.js';

const count = (html: string, pattern: RegExp) => (html.match(pattern) ?? []).length;

const hostile = {
  ...tiny,
  description: '<script>alert(1)</script> & friends',
  configurations: [
    { name: '<b>300 s</b>', params: { suspendTimeout: 300, projects: 3 } },
    { name: '60 s "fast"', params: { suspendTimeout: 60, projects: 3 } },
    { name: 'never', params: { suspendTimeout: -1, projects: 3 } },
  ],
};

describe('compareReport', () => {
  const html = compareReportOf(hostile, [11, 12, 13], '2h');

  it('is one self-contained file: no script, no external resource', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|<img|<[^>]*\s(?:src|href)=/);
    expect(html.replaceAll('http://www.w3.org/2000/svg', '')).not.toMatch(/https?:\/\//);
  });

  it('escapes every name the study chose', () => {
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; friends');
    expect(html).toContain('&lt;b&gt;300 s&lt;/b&gt;');
    expect(html).toContain('60 s &quot;fast&quot;');
    expect(html).not.toContain('<b>');
  });

  it('gives every figure of every configuration with its interval, and the paired differences', () => {
    const table = html.split('<table class="metrics paired">')[1]!.split('</table>')[0]!;
    expect(count(table, /<tr><th scope="row">/g)).toBe(FIGURES.length);
    const starts = /<th scope="row">starts<\/th>(.*?)<\/tr>/.exec(table)![1]!;
    const cells = [...starts.matchAll(/<td( class="[^"]*")?>([^<]*)<\/td>/g)];
    expect(cells.map((c) => c[1] ?? '')).toEqual([
      '',
      '',
      ' class="delta clear"',
      '',
      ' class="delta clear"',
    ]);
    expect(cells[0]![2]).toMatch(/^\d+ ±\d+$/);
    expect(cells[2]![2]).toMatch(/^\+\d+ ±\d+, \+\d+%$/);
    expect(cells[4]![2]).toMatch(/^−\d+ ±\d+, −\d+%$/);
    expect(html).toContain('Every configuration ran the same 3 seeds');
    expect(html).toContain('Seeds 11, 12, 13 · 2h of virtual time per configuration');
  });

  it('pairs each compute’s lanes across the configurations and draws every configuration’s series', () => {
    expect(count(html, /<svg /g)).toBe(3);
    for (const arm of [0, 1, 2]) {
      expect(count(html, new RegExp(`<g class="lane arm-${arm}">`, 'g'))).toBe(3);
      expect(count(html, new RegExp(`<path d="[^"]*" class="series s-arm-${arm}">`, 'g'))).toBe(2);
    }
    const labels = [...html.matchAll(/class="lane-label">([^<]*)</g)].map((m) => m[1]);
    expect(labels.slice(1, 3)).toEqual(['↳ 60 s &quot;fast&quot;', '↳ never']);
    expect(labels[0]).toMatch(/^ep-/);
  });

  it("says why the CU chart spikes at the availability checks' hours, only when there were checks", () => {
    expect(html).not.toContain('Spikes');
    const day = compareReportOf(tiny, [11], '13h');
    expect(day).toMatch(
      /Spikes at the same hours under every configuration are availability checks of the control plane \([1-9]\d* under /,
    );
  });

  it('says when one seed gives differences without intervals', () => {
    const one = compareReportOf(tiny, [11], '2h');
    expect(one).toContain('One seed (11)');
    const starts = /<th scope="row">starts<\/th>(.*?)<\/tr>/.exec(one)![1]!;
    expect(starts).not.toContain('±');
    expect(starts).toMatch(/<td class="delta">\+\d+, \+\d+%<\/td>/);
  });
});

describe('pairedLanes', () => {
  const lane = (endpointId: string): ComputeLane => ({
    endpointId,
    projectId: 'p',
    type: 'read_write',
    spans: [],
    operations: [],
  });

  it('follows each compute of the first arm with its lanes in the others, then computes only later arms have', () => {
    const paired = pairedLanes([
      { name: 'a', className: 'arm-0', lanes: [lane('ep-1'), lane('ep-2')] },
      { name: 'b', className: 'arm-1', lanes: [lane('ep-2'), lane('ep-3'), lane('ep-1')] },
    ]);
    expect(paired.labels).toEqual(['ep-1', '↳ b', 'ep-2', '↳ b', 'ep-3 (b)']);
    expect(paired.classes).toEqual(['arm-0', 'arm-1', 'arm-0', 'arm-1', 'arm-1']);
    expect(paired.groups).toEqual([2, 2, 1]);
  });

  it('draws whole computes only, within the lanes allowed', () => {
    expect(wholeGroups([3, 3, 3, 3], 10)).toEqual({ lanes: 9, computes: 3 });
    expect(wholeGroups([3, 2, 3], 5)).toEqual({ lanes: 5, computes: 2 });
    expect(wholeGroups([12], 10)).toEqual({ lanes: 12, computes: 1 });
  });
});
