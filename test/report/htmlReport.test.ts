/**
 * The HTML report as text: self-contained (nothing fetched), everything a scenario chose escaped,
 * one lane per compute with its operations, and the run's figures.
 */
import { describe, expect, it } from 'vitest';
import { defineScenario, runScenario } from '../../src/index.js';
import { htmlReport } from '../../src/report/html/htmlReport.js';
import { timeTicks, timeScale, tickLabel } from '../../src/report/html/timeAxis.js';
import { laneChart } from '../../src/report/html/laneChart.js';
import type { ComputeLane } from '../../src/projection/computeLanes.js';

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
    const overMidnight = timeScale(from + 14 * 3_600_000, from + 17 * 3_600_000, 0, 100);
    expect(tickLabel(timeTicks(overMidnight)[0]!, overMidnight)).toBe('01-05 23:00');
    const year = timeScale(from, from + 365 * 86_400_000, 0, 100);
    const yearTicks = timeTicks(year);
    expect(yearTicks.length).toBeLessThanOrEqual(8);
    for (const tick of yearTicks) expect(tick % 86_400_000).toBe(0);
    const week = timeScale(from, from + 7 * 86_400_000, 0, 100);
    expect(tickLabel(timeTicks(week)[0]!, week)).toBe('01-06 00:00');
    expect(timeTicks(week).length).toBeLessThanOrEqual(8);
  });
});

describe('lane chart', () => {
  it('stays the same size however long the run: per pixel column, at most 40 lanes', () => {
    const from = 0;
    const until = 40 * 86_400_000;
    const busy = (id: string): ComputeLane => {
      const spans = [];
      const operations = [];
      for (let t = 0; t < until; t += 600_000) {
        spans.push({ from: t, to: t + 300_000, state: 'active' });
        spans.push({ from: t + 300_000, to: t + 600_000, state: 'idle' });
        operations.push({ at: t, action: 'start_compute', status: 'finished' });
        operations.push({ at: t + 300_000, action: 'suspend_compute', status: 'finished' });
      }
      return { endpointId: id, projectId: 'p', type: 'read_write', spans, operations };
    };
    const lanes = Array.from({ length: 45 }, (_, i) => busy(`ep-${i}`));
    const svg = laneChart(lanes, from, until);
    expect(svg.match(/<g class="lane">/g)).toHaveLength(40);
    expect(svg).toContain('… and 5 more computes');
    const perLane = svg.split('<g class="lane">')[1]!;
    expect((perLane.match(/<rect/g) ?? []).length).toBeLessThanOrEqual(730);
    expect((perLane.match(/<line/g) ?? []).length).toBeLessThanOrEqual(180);
    expect(perLane).toMatch(
      /<title>\d+ operations: start_compute ×\d+, suspend_compute ×\d+<\/title>/,
    );
    expect(svg.length).toBeLessThan(6_000_000);
  });
});
