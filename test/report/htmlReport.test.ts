/**
 * The HTML report as text: self-contained (nothing fetched), everything a scenario chose escaped,
 * one lane per compute with its operations, and the run's figures.
 */
import { describe, expect, it } from 'vitest';
import { defineScenario, runScenario } from '../../src/index.js';
import { htmlReport } from '../../src/report/html/htmlReport.js';
import { timeTicks, timeScale, tickLabel } from '../../src/report/html/timeAxis.js';

const hostile = defineScenario({
  name: 'hostile',
  description: '<script>alert(1)</script> & friends',
  start: '2026-01-05T09:00:00Z',
  script(s) {
    const { endpoints } = s.request('POST', '/projects', {
      project: { name: '"><img src=x onerror=alert(1)>' },
    }).body;
    s.note('<b>not bold</b>');
    s.at('+10m', () => s.connect(endpoints[0].id));
  },
});

describe('htmlReport', () => {
  const run = runScenario(hostile);
  const html = htmlReport(run);

  it('is one self-contained file: no script, no external resource', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|<img|<[^>]*\s(?:src|href)=/);
    expect(html.replaceAll('http://www.w3.org/2000/svg', '')).not.toMatch(/https?:\/\//);
  });

  it('escapes every text the scenario chose', () => {
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; friends');
    expect(html).toContain('&lt;b&gt;not bold&lt;/b&gt;');
    expect(html).not.toContain('<img');
  });

  it('draws a lane per compute with its operations, and says how the run went', () => {
    const lanes = html.match(/<g class="lane">/g) ?? [];
    expect(lanes).toHaveLength(1);
    expect(html).toMatch(/<title>start_compute at 2026-01-05T09:00:00Z: finished<\/title>/);
    expect(html).toContain('Passed: 0 expectations held.');
    expect(html).toContain(`${run.sim.log.length} events`);
  });
});

describe('time axis', () => {
  it('ticks at round UTC steps, with dates once the span crosses days', () => {
    const from = Date.parse('2026-01-05T09:00:00Z');
    const hour = timeScale(from, from + 3_600_000, 0, 100);
    expect(timeTicks(hour).map((t) => tickLabel(t, hour))).toEqual([
      '09:00',
      '09:10',
      '09:20',
      '09:30',
      '09:40',
      '09:50',
      '10:00',
    ]);
    const week = timeScale(from, from + 7 * 86_400_000, 0, 100);
    expect(tickLabel(timeTicks(week)[0]!, week)).toBe('01-06 00:00');
    expect(timeTicks(week).length).toBeLessThanOrEqual(8);
  });
});
