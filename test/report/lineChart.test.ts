/**
 * The line chart over any x axis: time charts keep their steps, a swept number or named points get
 * straight lines with marked points, bands (broken where a point has no interval), dots, a y axis
 * that reaches below zero when a value does, and legends and labels that do not run into each other.
 */
import { describe, expect, it } from 'vitest';
import { chartLegend } from '../../src/report/html/chartLegend.js';
import { lineChart } from '../../src/report/html/lineChart.js';
import { labelWidth } from '../../src/report/html/tickLabelWidth.js';
import { timeAxis } from '../../src/report/html/timeAxis.js';
import { categoryAxis, numberAxis } from '../../src/report/html/xAxis.js';

const count = (svg: string, pattern: RegExp) => (svg.match(pattern) ?? []).length;

describe('lineChart', () => {
  it('draws time series as steps to the end of the axis', () => {
    const svg = lineChart(
      'CU',
      'CU',
      [
        {
          name: 'mean',
          className: 's-cu',
          points: [
            [0, 1],
            [60_000, 2],
          ],
        },
      ],
      timeAxis(0, 120_000),
    );
    expect(svg).toMatch(/<path d="M230\.0,[\d.]+H[\d.]+V[\d.]+H944\.0" class="series s-cu">/);
    expect(svg).toContain('time (UTC)');
  });

  it('ticks a day from midnight so that every time label fits beside the next', () => {
    const from = Date.parse('2026-01-06T00:00:00Z');
    const svg = timeAxis(from, from + 86_400_000)(230, 944).svg(100);
    const labels = [
      ...svg.matchAll(
        /<text x="([\d.]+)" y="118" text-anchor="middle" class="tick time-tick">([^<]+)</g,
      ),
    ];
    expect(labels.map(([, , text]) => text)).toEqual([
      '01-06 00:00',
      '01-06 06:00',
      '01-06 12:00',
      '01-06 18:00',
      '01-07 00:00',
    ]);
    expect(count(svg, /<line [^>]*y2="105"/g)).toBe(labels.length);
    const extents = labels.map(([, x, text]) => [
      Number(x) - labelWidth(text!) / 2,
      Number(x) + labelWidth(text!) / 2,
    ]);
    // x is written to a tenth of a pixel.
    expect(extents[0]![0]).toBeGreaterThanOrEqual(229.95);
    expect(extents.at(-1)![1]).toBeLessThanOrEqual(944.05);
    for (let i = 1; i < extents.length; i++)
      expect(extents[i]![0]).toBeGreaterThan(extents[i - 1]![1]!);
  });

  it('draws a swept number as a line with marked points, a band and dots', () => {
    const svg = lineChart(
      'cold starts',
      'cold starts',
      [
        {
          name: 'each seed',
          className: 's-seed',
          join: 'dots',
          points: [
            [60, 1],
            [60, 3],
            [300, 0],
          ],
        },
        {
          name: 'mean',
          className: 's-mean',
          join: 'line',
          points: [
            [60, 2],
            [300, 0.5],
            [600, 0.2],
          ],
          tips: ['a <tip>', 'b', 'c'],
        },
      ],
      numberAxis([60, 300, 600], 'suspendTimeout'),
      {
        bands: [
          {
            name: '95% interval',
            className: 's-mean',
            points: [
              [60, 1, 3],
              [300, -0.7, 1.7],
              [600, null, null],
            ],
          },
        ],
      },
    );
    expect(count(svg, /<path d="M[^"]*L[^"]*" class="series s-mean">/g)).toBe(1);
    expect(count(svg, /class="marker s-mean"/g)).toBe(3);
    expect(count(svg, /class="dot s-seed"/g)).toBe(3);
    // The two points with an interval are one shape; the third has none, so the band stops.
    expect(count(svg, /<path [^>]*class="band s-mean"/g)).toBe(1);
    expect(svg).toContain('a &lt;tip&gt;');
    // The low end of the interval is below zero, and so is the axis.
    expect(svg).toMatch(/class="tick">-1<\/text>/);
    expect(svg).toContain('>suspendTimeout</text>');
    expect(svg).toMatch(/class="tick">600<\/text>/);
  });

  it('gives a point alone its own narrow band', () => {
    const svg = lineChart('x', 'y', [], numberAxis([1, 2, 3], 'n'), {
      bands: [
        {
          name: 'b',
          className: 's',
          points: [
            [1, 1, 2],
            [2, null, null],
            [3, 1, 2],
          ],
        },
      ],
    });
    expect(count(svg, /class="band s"/g)).toBe(2);
  });

  it('puts named points in order, slanting labels that would collide', () => {
    const short = categoryAxis(['a', 'b', 'c'], 'configuration')(230, 944);
    expect(short.x(0)).toBeLessThan(short.x(1));
    expect(short.svg(100)).not.toContain('rotate(');
    const long = categoryAxis(
      Array.from({ length: 9 }, (_, i) => `suspendTimeout=${i * 100} minCu=0.25 maxCu=${i}`),
      'point',
    )(230, 944);
    expect(long.svg(100)).toContain('rotate(-30)');
    expect(long.depth).toBeGreaterThan(60);
    expect(long.svg(100)).toContain('<title>suspendTimeout=800 minCu=0.25 maxCu=8</title>');
  });

  it('wraps a legend that does not fit on one line', () => {
    const items = Array.from({ length: 5 }, (_, i) => ({
      name: `configuration number ${i}: mean CU`,
      className: `s-arm-${i}`,
    }));
    const legend = chartLegend(items, 230, 944);
    expect(legend.height).toBeGreaterThan(22);
    const xs = [...legend.svg.matchAll(/<rect x="(\d+)" y="(\d+)"/g)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    for (const [x] of xs) expect(x).toBeLessThan(944 - 150);
    expect(new Set(xs.map(([, y]) => y)).size).toBeGreaterThan(1);
    expect(chartLegend(items.slice(0, 2), 230, 944).height).toBe(22);
  });
});
