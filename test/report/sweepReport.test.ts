/**
 * The sweep report as text: self-contained, names escaped, one chart per figure over the swept
 * parameter (a number axis for one number swept in increasing order, else the points in order),
 * the mean as a line, the 95% interval as a band (none for one seed), each seed as a dot, and the
 * grid as a table.
 */
import { describe, expect, it } from 'vitest';
import { sweepReport } from '../../src/report/html/sweepReport.js';
import { sweep } from '../../src/study/sweep.js';
import tiny from '../fixtures/tinyStudy.js';

const count = (html: string, pattern: RegExp) => (html.match(pattern) ?? []).length;
const short = { ...tiny, duration: '2h' };
const charts = (html: string) => html.split('<svg ').slice(1);

describe('sweepReport', () => {
  const result = sweep(short, { grid: { suspendTimeout: [60, 300, 900] }, seeds: [11, 12] });
  const html = sweepReport(result, ['cuHours', 'starts', 'coldStartWaitP95Ms']);

  it('is one self-contained file: no script, no external resource', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|<img|<[^>]*\s(?:src|href)=/);
    expect(html.replaceAll('http://www.w3.org/2000/svg', '')).not.toMatch(/https?:\/\//);
    expect(html).toContain('3 points × 2 seeds (11, 12) · 2h of virtual time each');
  });

  it('charts each figure over the swept number: mean line, interval band, a dot per seed', () => {
    const drawn = charts(html);
    expect(drawn).toHaveLength(3);
    for (const chart of drawn.slice(0, 2)) {
      expect(count(chart, /class="series s-arm-0"/g)).toBe(1);
      expect(count(chart, /class="marker s-arm-0"/g)).toBe(3);
      expect(count(chart, /class="band s-arm-0"/g)).toBe(1);
      expect(count(chart, /class="dot s-seed"/g)).toBe(6);
      expect(chart).toContain('>suspendTimeout</text>');
    }
    // A number axis: the points sit where their values are (300 is 2/7 of the way to 900 from 60).
    const xs = [...drawn[0]!.matchAll(/class="marker s-arm-0"/g)].map((m) => {
      const before = drawn[0]!.slice(0, m.index);
      return Number(/cx="([\d.]+)"[^>]*$/.exec(before)![1]);
    });
    expect((xs[1]! - xs[0]!) / (xs[2]! - xs[0]!)).toBeCloseTo(240 / 840, 2);
    expect(html).toMatch(/<title>suspendTimeout=300, seed 12: \d+<\/title>/);
  });

  it('lists the grid: a row per point, each figure’s mean ±half its interval', () => {
    const table = html.split('<table class="metrics sweep-grid">')[1]!.split('</table>')[0]!;
    expect([...table.matchAll(/<th scope="row">([^<]+)</g)].map((m) => m[1])).toEqual([
      'suspendTimeout=60',
      'suspendTimeout=300',
      'suspendTimeout=900',
    ]);
    expect(count(table, /<th scope="col">/g)).toBe(4);
    expect(table).toMatch(/<td>[\d.]+ ±[\d.]+<\/td>/);
  });

  it('puts points in the order listed when the numbers are not a scale (-1: never)', () => {
    const listed = sweep(short, { grid: { suspendTimeout: [300, 60, -1] }, seeds: [11] });
    const one = sweepReport(listed, ['cuHours']);
    const [chart] = charts(one);
    expect(chart).toContain('>suspendTimeout</text>');
    const ticks = [...chart!.matchAll(/class="tick">([^<]+)<\/text>/g)].map((m) => m[1]);
    expect(ticks.slice(-3)).toEqual(['300', '60', '-1']);
    // Not one scale: the means are marked, not joined by a line as if they were.
    expect(count(chart!, /class="series /g)).toBe(0);
    expect(count(chart!, /class="marker s-arm-0"/g)).toBe(3);
    // One seed: no interval to shade, and the captions say so.
    expect(count(chart!, /class="band /g)).toBe(0);
    expect(one).toContain('one seed (11): each point is one run, with no interval');
  });

  it('shades each named point’s interval on its own, not one band across them', () => {
    const listed = sweep(short, { grid: { suspendTimeout: [300, 60, -1] }, seeds: [11, 12] });
    const [chart] = charts(sweepReport(listed, ['cuHours']));
    expect(count(chart!, /class="band /g)).toBe(3);
  });

  it("writes the study's units on the axis and its names for values, which are not on the scale", () => {
    const labelled = {
      ...short,
      paramLabels: { suspendTimeout: { unit: 's', values: { '-1': 'never' } } },
    };
    const scaled = sweep(labelled, { grid: { suspendTimeout: [60, 300] }, seeds: [11] });
    const [onScale] = charts(sweepReport(scaled, ['cuHours']));
    expect(onScale).toContain('>suspendTimeout (s)</text>');
    expect(count(onScale!, /class="series /g)).toBeGreaterThan(0); // a scale: joined by a line
    // A named value is a point, not a place on the scale, even listed in increasing order.
    const withNever = sweep(labelled, { grid: { suspendTimeout: [-1, 60, 300] }, seeds: [11] });
    const [named] = charts(sweepReport(withNever, ['cuHours']));
    const ticks = [...named!.matchAll(/class="tick">([^<]+)<\/text>/g)].map((m) => m[1]);
    expect(ticks.slice(-3)).toEqual(['never', '60', '300']);
    expect(named).toContain('>suspendTimeout (s)</text>');
    expect(count(named!, /class="series /g)).toBe(0);
  });

  it('names the configurations, escaped, when it sweeps them', () => {
    const configured = sweep(
      {
        ...short,
        description: '<script>x</script>',
        configurations: [
          { name: '<b>long</b>', params: { suspendTimeout: 300, projects: 2 } },
          { name: 'short & "quick"', params: { suspendTimeout: 60, projects: 2 } },
        ],
      },
      { grid: {}, seeds: [11, 12] },
    );
    const page = sweepReport(configured, ['starts']);
    expect(page).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(page).toContain('class="tick">&lt;b&gt;long&lt;/b&gt;</text>');
    expect(page).toContain('short &amp; &quot;quick&quot;');
    expect(page).not.toContain('<b>');
    expect(page).toContain('>configuration</text>');
  });
});
