/**
 * The HTML report as text: self-contained (nothing fetched), everything a scenario chose escaped,
 * one lane per compute with its operations, and the run's figures.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineScenario, runScenario } from '../../src/index.js';
import { htmlReport } from '../../src/report/html/htmlReport.js';
import { labelWidth } from '../../src/report/html/tickLabelWidth.js';
import { tickLabel, tickLabels, timeScale, timeTicks } from '../../src/report/html/timeAxis.js';
import { CHART_LEFT, CHART_WIDTH, laneChart } from '../../src/report/html/laneChart.js';
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
  const DAY = 86_400_000;
  // The plot of every chart: from CHART_LEFT to CHART_WIDTH - 16.
  const plot = [CHART_LEFT, CHART_WIDTH - 16] as const;

  it('ticks at round UTC steps, with dates once the span crosses days', () => {
    const from = Date.parse('2026-01-05T09:00:00Z');
    const hour = timeScale(from, from + 3_600_000, ...plot);
    expect(timeTicks(hour).map((t) => tickLabel(t, hour))).toEqual([
      '09:00',
      '09:10',
      '09:20',
      '09:30',
      '09:40',
      '09:50',
      '10:00',
    ]);
    const overMidnight = timeScale(from + 14 * 3_600_000, from + 17 * 3_600_000, ...plot);
    expect(tickLabel(timeTicks(overMidnight)[0]!, overMidnight)).toBe('01-05 23:00');
    const year = timeScale(from, from + 365 * 86_400_000, ...plot);
    const yearTicks = timeTicks(year);
    expect(yearTicks.length).toBeLessThanOrEqual(8);
    for (const tick of yearTicks) expect(tick % 86_400_000).toBe(0);
    const week = timeScale(from, from + 7 * 86_400_000, ...plot);
    expect(tickLabel(timeTicks(week)[0]!, week)).toBe('01-06 00:00');
    expect(timeTicks(week).length).toBeLessThanOrEqual(8);
  });

  it('ticks a day from midnight every 6 h, not every 3 h, so the dated labels fit', () => {
    const midnight = Date.parse('2026-01-06T00:00:00Z');
    const day = timeScale(midnight, midnight + 86_400_000, ...plot);
    expect(tickLabels(day, timeTicks(day)).map((label) => label.text)).toEqual([
      '01-06 00:00',
      '01-06 06:00',
      '01-06 12:00',
      '01-06 18:00',
      '01-07 00:00',
    ]);
  });

  it('takes fewer ticks on a narrower chart', () => {
    const from = Date.parse('2026-01-05T09:00:00Z');
    const narrow = timeScale(from, from + 3_600_000, 0, 100);
    expect(timeTicks(narrow).map((t) => tickLabel(t, narrow))).toEqual(['09:00', '10:00']);
  });

  it('never overlaps two labels or runs one off the plot, whatever the span and width', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: Date.parse('2000-01-01'), max: Date.parse('2100-01-01') }),
          // Midnights: spans that start and end on round instants, where both ends get a tick.
          fc.integer({ min: 10_957, max: 47_482 }).map((days) => days * DAY),
        ),
        fc.oneof(
          fc.integer({ min: 0, max: 7_200_000 }),
          fc.integer({ min: 0, max: 40 * DAY }),
          fc.integer({ min: 0, max: 3 * 365 * DAY }),
          fc.integer({ min: 1, max: 400 }).map((days) => days * DAY),
        ),
        fc.integer({ min: 0, max: 400 }),
        // Wider than the widest label (`01-06 09:05:30`).
        fc.integer({ min: 120, max: 2_000 }),
        (from, span, left, width) => {
          const scale = timeScale(from, from + span, left, left + width);
          const ticks = timeTicks(scale);
          const labels = tickLabels(scale, ticks);
          expect(ticks.length).toBeGreaterThan(0);
          // Every tick is labelled: the ticks were chosen so that their labels fit.
          expect(labels.map((label) => label.at)).toEqual(ticks);
          const extents = labels.map((label) => [
            label.x - labelWidth(label.text) / 2,
            label.x + labelWidth(label.text) / 2,
          ]);
          for (const [start, end] of extents) {
            expect(start).toBeGreaterThanOrEqual(scale.left - 1e-9);
            expect(end).toBeLessThanOrEqual(scale.right + 1e-9);
          }
          for (let i = 1; i < extents.length; i++)
            expect(extents[i]![0]).toBeGreaterThan(extents[i - 1]![1]!);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('drops a label that would collide with the one before, however the ticks were chosen', () => {
    const from = Date.parse('2026-01-06T00:00:00Z');
    const day = timeScale(from, from + 86_400_000, 0, 300);
    const hourly = Array.from({ length: 25 }, (_, i) => from + i * 3_600_000);
    const labels = tickLabels(day, hourly);
    expect(labels.length).toBeLessThan(hourly.length);
    for (let i = 1; i < labels.length; i++) {
      const [before, after] = [labels[i - 1]!, labels[i]!];
      expect(after.x - after.width / 2).toBeGreaterThan(before.x + before.width / 2);
    }
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
