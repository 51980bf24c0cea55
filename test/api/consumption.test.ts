/**
 * Usage counters and consumption history: the project record's `active_time_seconds`,
 * `compute_time_seconds` and `cpu_used_sec`, and `GET /consumption_history/projects`, agree with the
 * metrics projection (`metricsOf`) of the same log, for computes that start, autoscale, suspend and
 * are deleted, including while a compute is still active.
 */
import { describe, expect, it } from 'vitest';
import { Simulation, type ProfileOverrides, type SimEvent } from '../../src/index.js';
import { metricsOf } from '../../src/projection/metrics.js';
import { immerFold } from '../support/immerFold.js';

const START = Date.parse('2026-01-05T00:00:00Z');
const HOUR = 3_600_000;
const QUIET: ProfileOverrides = {
  availabilityChecks: { intervalMs: 0, backoff: 1, maxIntervalMs: 0 },
  tenantDetachAfterMs: 0,
  coldCache: { warmupMs: 0, penaltyMs: 0 },
};

/** Project `p`'s active seconds and CU-seconds by the metrics projection of the log up to `t`. */
function projected(sim: Simulation, projectId: string, t: number) {
  const prefix = [...(sim.log as Iterable<SimEvent>)].filter((e) => e.at <= t);
  const computes = metricsOf(prefix, { until: t }).computes.filter(
    (c) => c.projectId === projectId,
  );
  return {
    activeSeconds: computes.reduce((s, c) => s + c.activeHours * 3600, 0),
    cuSeconds: computes.reduce((s, c) => s + c.cuHours * 3600, 0),
  };
}

/** The whole seconds the API reports for a projected figure (floating-point error allowed). */
const whole = (seconds: number) => Math.floor(seconds + 1e-6);

/**
 * Two projects: one with an autoscaling primary (0.25-4 CU, suspends after 5 min), a second branch
 * whose compute never suspends, and a read replica that is deleted while running; traces load the
 * primary twice (it grows and shrinks) and the branch compute once. Another project idles.
 */
function givenABusyRun() {
  const sim = new Simulation({ seed: 21, start: START, profile: QUIET });
  const created = sim.request('POST', '/projects', {
    project: {
      name: 'busy',
      default_endpoint_settings: {
        autoscaling_limit_min_cu: 0.25,
        autoscaling_limit_max_cu: 4,
        suspend_timeout_seconds: 300,
      },
    },
  }).body;
  const p: string = created.project.id;
  const primary: string = created.endpoints[0].id;
  sim.runUntilIdle();
  const dev = sim.request('POST', `/projects/${p}/branches`, {
    branch: { name: 'dev' },
    endpoints: [
      {
        type: 'read_write',
        autoscaling_limit_min_cu: 0.5,
        autoscaling_limit_max_cu: 2,
        suspend_timeout_seconds: -1,
      },
    ],
  }).body;
  const devCompute: string = dev.endpoints[0].id;
  sim.runUntilIdle();
  const replica: string = sim.request('POST', `/projects/${p}/endpoints`, {
    endpoint: { branch_id: created.branch.id, type: 'read_only', suspend_timeout_seconds: -1 },
  }).body.endpoint.id;
  sim.runUntilIdle();
  const other = sim.request('POST', '/projects', { project: { name: 'idle' } }).body;
  sim.runUntilIdle();
  const at = sim.now();
  sim.addWorkload({
    kind: 'trace',
    rows: [
      { at: at + 60_000, endpointId: primary, duration: '3m', cpu: 2.5 },
      { at: at + 20 * 60_000, endpointId: primary, duration: '10m', cpu: 1.2 },
      { at: at + 40 * 60_000, endpointId: devCompute, duration: '30m', cpu: 1.5 },
    ],
  });
  sim.advance('50m');
  expect(sim.request('DELETE', `/projects/${p}/endpoints/${replica}`).status).toBe(200);
  sim.advance('100m');
  return { sim, p, other: other.project.id as string, primary, devCompute };
}

describe('usage counters of a project', () => {
  it('agree with metricsOf after starts, autoscaling, suspends and a deletion, while a compute is still active', () => {
    // Given a run where computes started, resized, suspended and one was deleted
    const { sim, p, other, primary, devCompute } = givenABusyRun();
    const resized = [...(sim.log as Iterable<SimEvent>)].filter((e) => e.type === 'ComputeResized');
    expect(new Set(resized.map((e) => 'endpointId' in e && e.endpointId))).toEqual(
      new Set([primary, devCompute]),
    );
    const endpoints = sim.state.projects[p]!.endpoints;
    expect(endpoints[primary]!.currentState).toBe('idle');
    expect(endpoints[devCompute]!.currentState).toBe('active');

    // When the project is read at several instants, the last ones with nothing logged in between
    for (const step of ['0s', '7s', '13m']) {
      sim.advance(step);
      const project = sim.request('GET', `/projects/${p}`).body.project;
      const expected = projected(sim, p, sim.now());

      // Then its counters are the projection's figures in whole seconds
      expect(project.active_time_seconds).toBe(whole(expected.activeSeconds));
      expect(project.compute_time_seconds).toBe(whole(expected.cuSeconds));
      expect(project.cpu_used_sec).toBe(whole(expected.cuSeconds));
      expect(project.written_data_bytes).toBe(0);
      const listed = sim
        .request('GET', '/projects')
        .body.projects.find((x: { id: string }) => x.id === p);
      expect(listed.active_time).toBe(project.active_time_seconds);
      expect(listed.cpu_used_sec).toBe(project.cpu_used_sec);
    }
    // And they grew while the never-suspending compute ran (0.5 CU at least)
    const first = sim.request('GET', `/projects/${p}`).body.project.active_time_seconds;
    sim.advance('1m');
    expect(sim.request('GET', `/projects/${p}`).body.project.active_time_seconds).toBe(first + 60);
    // And the counted usage in the state is a plain fold of the log, and survives replay
    expect(sim.state).toEqual(immerFold(sim.log));
    expect(Simulation.replay(sim.log).state).toEqual(sim.state);
    // And the other project's counters are its own primary's only
    const idle = sim.request('GET', `/projects/${other}`).body.project;
    expect(idle.active_time_seconds).toBe(whole(projected(sim, other, sim.now()).activeSeconds));
    expect(idle.active_time_seconds).toBeGreaterThan(0);
  });

  it('stay 0 for a project whose computes never started', () => {
    const sim = new Simulation({ seed: 2, start: START, profile: QUIET });
    const p = sim.request('POST', '/projects', { project: {} }).body.project;
    expect(p).toMatchObject({ active_time_seconds: 0, compute_time_seconds: 0, cpu_used_sec: 0 });
  });
});

describe('consumption history per project', () => {
  it('gives each hour the growth metricsOf shows over it, and the hours add up to the counters', () => {
    // Given the busy run, still going
    const { sim, p, other } = givenABusyRun();
    sim.advance('25m');
    const now = sim.now();

    // When the hourly history from the start to a bit past now is read
    const response = sim.request(
      'GET',
      `/consumption_history/projects?from=2026-01-05T00:00:00Z&to=${new Date(now + 2 * HOUR).toISOString()}&granularity=hourly`,
    );
    expect(response.status).toBe(200);
    const history = response.body.projects.find((x: { project_id: string }) => x.project_id === p);
    const frames = history.periods[0].consumption;

    // Then the frames are whole hours from the start up to the one holding now
    expect(frames[0].timeframe_start).toBe('2026-01-05T00:00:00Z');
    const lastStart = Date.parse(frames.at(-1).timeframe_start);
    expect(lastStart).toBeLessThanOrEqual(now);
    expect(lastStart + HOUR).toBeGreaterThan(now);
    // And each is the projection's growth over it (within the rounding to whole seconds)
    for (const frame of frames) {
      const start = Date.parse(frame.timeframe_start);
      const end = Math.min(Date.parse(frame.timeframe_end), now);
      const before = projected(sim, p, start);
      const after = projected(sim, p, end);
      expect(
        Math.abs(frame.active_time_seconds - (after.activeSeconds - before.activeSeconds)),
      ).toBeLessThan(1);
      expect(
        Math.abs(frame.compute_time_seconds - (after.cuSeconds - before.cuSeconds)),
      ).toBeLessThan(1);
    }
    // And the frames add up to the project's counters now
    const project = sim.request('GET', `/projects/${p}`).body.project;
    const sum = (key: string) =>
      frames.reduce((s: number, f: Record<string, number>) => s + f[key]!, 0);
    expect(sum('active_time_seconds')).toBe(project.active_time_seconds);
    expect(sum('compute_time_seconds')).toBe(project.compute_time_seconds);
    expect(response.body.projects.map((x: { project_id: string }) => x.project_id)).toEqual([
      p,
      other,
    ]);
  });

  it('filters by project_ids, pages by cursor and rounds daily frames to UTC days', () => {
    const { sim, p, other } = givenABusyRun();
    const base =
      '/consumption_history/projects?from=2026-01-05T06:00:00Z&to=2026-01-06T01:00:00Z&granularity=daily';
    const only = sim.request('GET', `${base}&project_ids=${other}`).body;
    expect(only.projects.map((x: { project_id: string }) => x.project_id)).toEqual([other]);
    const days = only.projects[0].periods[0].consumption;
    expect(days.map((d: { timeframe_start: string }) => d.timeframe_start)).toEqual([
      '2026-01-05T00:00:00Z',
    ]);
    const firstPage = sim.request('GET', `${base}&limit=1`).body;
    expect(firstPage.projects.map((x: { project_id: string }) => x.project_id)).toEqual([p]);
    const secondPage = sim.request(
      'GET',
      `${base}&limit=1&cursor=${firstPage.pagination.cursor}`,
    ).body;
    expect(secondPage.projects.map((x: { project_id: string }) => x.project_id)).toEqual([other]);
  });

  it('shows a project-scoped key only its own project', () => {
    const { sim, p, other } = givenABusyRun();
    const key = sim.addApiKey({ kind: 'project', projectId: other });
    const path =
      '/consumption_history/projects?from=2026-01-05T00:00:00Z&to=2026-01-05T03:00:00Z&granularity=hourly';
    const seen = (query: string) =>
      sim
        .request('GET', `${path}${query}`, undefined, { apiKey: key })
        .body.projects.map((x: { project_id: string }) => x.project_id);
    expect(seen('')).toEqual([other]);
    expect(seen(`&project_ids=${p}`)).toEqual([]);
  });

  it('refuses a query without its required parameters, or beyond what a granularity reaches', () => {
    const sim = new Simulation({ seed: 2, start: START, profile: QUIET });
    const path = '/consumption_history/projects';
    const stateBefore = sim.toJSONL();
    expect(sim.request('GET', path).status).toBe(400);
    expect(
      sim.request('GET', `${path}?from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z`).status,
    ).toBe(400);
    expect(
      sim.request(
        'GET',
        `${path}?from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z&granularity=weekly`,
      ).status,
    ).toBe(400);
    expect(
      sim.request(
        'GET',
        `${path}?from=2026-01-06T00:00:00Z&to=2026-01-05T00:00:00Z&granularity=daily`,
      ).status,
    ).toBe(400);
    expect(
      sim.request(
        'GET',
        `${path}?from=2026-01-01T00:00:00Z&to=2026-01-09T01:00:00Z&granularity=hourly`,
      ).status,
    ).toBe(406);
    expect(
      sim.request(
        'GET',
        `${path}?from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z&granularity=daily&org_id=org-else-1`,
      ).status,
    ).toBe(404);
    expect(sim.toJSONL()).toBe(stateBefore);
  });
});
