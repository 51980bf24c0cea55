/**
 * Workload generators: daily rates, the Poisson process they drive, cron and burst timing, spec
 * checking with clear errors, and trace files with bad rows reported by line.
 */
import { describe, expect, it } from 'vitest';
import { Simulation, officeHours } from '../../src/index.js';
import { parseTrace } from '../../src/entries/model.js';
import { RandomSource } from '../../src/engine/index.js';
import { nextArrival, rateAt } from '../../src/workload/dailyRates.js';

const MONDAY = Date.parse('2026-01-05T00:00:00Z');
const HOUR = 3_600_000;

describe('daily rates', () => {
  const office = officeHours({ peak: 6, offPeak: 0.5 });

  it('follow the hour of day and the day of week', () => {
    expect(rateAt(office, MONDAY + 9 * HOUR)).toBe(6);
    expect(rateAt(office, MONDAY + 18 * HOUR)).toBe(0.5);
    expect(rateAt(office, MONDAY + 5 * 24 * HOUR + 9 * HOUR)).toBe(0.5); // Saturday
    expect(rateAt(office, MONDAY + 9 * HOUR, -5 * HOUR)).toBe(0.5); // 04:00 local
  });

  it('drive a Poisson process whose mean count matches the rate', () => {
    let t = MONDAY + 8 * HOUR;
    let count = 0;
    for (let i = 0; t < MONDAY + 18 * HOUR; i++) {
      const next = nextArrival(office, t, RandomSource.derive(1, 'test', i).exponential(1));
      if (next === null) break;
      t = next;
      if (t < MONDAY + 18 * HOUR) count++;
    }
    expect(count).toBeGreaterThan(40);
    expect(count).toBeLessThan(80);
  });

  it('skip hours without traffic, and end when a whole week has none', () => {
    const weekdaysOnly = { weekday: Array<number>(24).fill(1), weekend: Array<number>(24).fill(0) };
    const saturday = MONDAY + 5 * 24 * HOUR;
    expect(nextArrival(weekdaysOnly, saturday, 0.5)).toBe(MONDAY + 7 * 24 * HOUR + HOUR / 2);
    const none = { weekday: Array<number>(24).fill(0), weekend: Array<number>(24).fill(0) };
    expect(nextArrival(none, MONDAY, 1)).toBeNull();
  });
});

describe('generators attached to a compute', () => {
  function givenCompute() {
    const sim = new Simulation({ seed: 3, start: MONDAY });
    const created = sim.request('POST', '/projects', { project: {} }).body;
    return { sim, endpointId: created.endpoints[0].id as string };
  }
  const arrivals = (sim: Simulation, workloadId: string) =>
    [...sim.log].flatMap((e) =>
      e.type === 'SessionArrived' && e.workloadId === workloadId ? [e.at - MONDAY] : [],
    );

  it('cron runs every period with its connections, within its window', () => {
    const { sim, endpointId } = givenCompute();
    const id = sim.addWorkload({
      kind: 'cron',
      endpointId,
      every: '15m',
      connections: 2,
      after: '5m',
      for: '50m',
      session: { duration: '1m' },
    });
    sim.advance('2h');
    const m = 60_000;
    expect(arrivals(sim, id)).toEqual([5, 5, 20, 20, 35, 35, 50, 50].map((x) => x * m));
  });

  it('a worker keeps its connections, re-established every period', () => {
    const { sim, endpointId } = givenCompute();
    sim.addWorkload({ kind: 'worker', endpointId, connections: 3, reconnectEvery: '1h' });
    sim.advance('30m');
    const endpoint = Object.values(sim.state.projects)[0]!.endpoints[endpointId]!;
    expect(endpoint.directConnections).toBe(3);
    sim.advance('10h');
    expect(Object.values(sim.state.projects)[0]!.endpoints[endpointId]!.currentState).toBe(
      'active',
    );
  });

  it('a burst spreads its sessions over its window, in order', () => {
    const { sim, endpointId } = givenCompute();
    const id = sim.addWorkload({
      kind: 'burst',
      endpointId,
      after: '10m',
      count: 50,
      within: '10s',
      session: { duration: '5s' },
    });
    sim.advance('1h');
    const times = arrivals(sim, id);
    expect(times).toHaveLength(50);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(times[0]).toBeGreaterThanOrEqual(600_000);
    expect(times[49]).toBeLessThan(610_000);
  });

  it.each([
    [
      { kind: 'poisson', endpointId: 'X', rates: 1, session: { duration: '1m' } },
      /compute X not found/,
    ],
    [{ kind: 'poisson', rates: 1, session: { duration: '1m' } }, /endpointId must name a compute/],
    [{ kind: 'poisson', endpointId: 'E', rates: -1, session: { duration: '1m' } }, /rates/],
    [
      { kind: 'poisson', endpointId: 'E', rates: { weekday: [1] }, session: { duration: '1m' } },
      /24/,
    ],
    [{ kind: 'poisson', endpointId: 'E', rates: 1, session: { duration: 'soon' } }, /duration/],
    [
      { kind: 'poisson', endpointId: 'E', rates: 1, session: { duration: { dist: 'gauss' } } },
      /unknown dist/,
    ],
    [{ kind: 'cron', endpointId: 'E', every: '10ms', session: { duration: '1m' } }, /at least 1s/],
    [{ kind: 'worker', endpointId: 'E', connections: 0 }, /connections/],
    [
      { kind: 'burst', endpointId: 'E', count: 1.5, within: '1s', session: { duration: '1s' } },
      /count/,
    ],
    [
      { kind: 'trace', rows: [{ at: '2020-01-01T00:00:00Z', endpointId: 'E', duration: '1m' }] },
      /before/,
    ],
    [{ kind: 'storm' }, /unknown workload kind/],
  ])('refuses %j with a clear error and changes nothing', (input, message) => {
    const { sim, endpointId } = givenCompute();
    const resolved = JSON.parse(
      JSON.stringify(input).replaceAll('"E"', JSON.stringify(endpointId)),
    );
    const length = sim.log.length;
    expect(() => sim.addWorkload(resolved)).toThrow(message);
    expect(sim.log.length).toBe(length);
  });
});

describe('trace files', () => {
  it('reads CSV with a header, comments and epoch or ISO timestamps', () => {
    const parsed = parseTrace(
      [
        'timestamp,endpoint,duration,cpu',
        '# a comment',
        '2026-01-05T09:00:00Z,ep-a-b-123456,90s,0.5',
        `${MONDAY + HOUR},ep-a-b-123456,60000`,
      ].join('\n'),
    );
    expect(parsed).toEqual({
      ok: true,
      value: [
        { at: MONDAY + 9 * HOUR, endpointId: 'ep-a-b-123456', duration: 90_000, cpu: 0.5 },
        { at: MONDAY + HOUR, endpointId: 'ep-a-b-123456', duration: 60_000 },
      ],
    });
  });

  it('reads JSON Lines', () => {
    const parsed = parseTrace(
      '{"timestamp":"2026-01-05T09:00:00Z","endpoint":"ep-a-b-123456","duration":"2m"}\n',
    );
    expect(parsed.ok && parsed.value[0]).toEqual({
      at: MONDAY + 9 * HOUR,
      endpointId: 'ep-a-b-123456',
      duration: 120_000,
    });
  });

  it('reports every bad row with its line number', () => {
    const parsed = parseTrace(
      [
        'timestamp,endpoint,duration',
        '2026-01-05T09:00:00Z,ep-a-b-123456,90s',
        'yesterday,ep-a-b-123456,90s',
        '2026-01-05T09:00:00Z,db-1,90s',
        '2026-01-05T09:00:00Z,ep-a-b-123456',
        '2026-01-05T09:00:00Z,ep-a-b-123456,90s,lots',
      ].join('\n'),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.map((p) => p.split(':')[0])).toEqual([
      'line 3',
      'line 4',
      'line 5',
      'line 6',
    ]);
  });

  it('refuses an empty trace', () => {
    expect(parseTrace('timestamp,endpoint,duration\n')).toEqual({
      ok: false,
      error: ['the trace has no rows'],
    });
  });
});
