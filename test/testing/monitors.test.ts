import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../../src/simulation/simulation.js';
import type { SimEvent } from '../../src/model/events.js';
import {
  assertLogClean,
  checkLog,
  defaultMonitors,
  defineMonitor,
  monotonicTimestamps,
  MonitorViolationError,
  noBillingWhileIdle,
  noConnectionOnIdleCompute,
  oneReadWritePerBranch,
  operationsEventuallyTerminal,
  watchMonitors,
} from '../../src/testing/index.js';
import { runClient } from '../../src/testing/index.js';
import { givenProject } from '../support/given.js';

/** A busy, clean week: autoscaling, workloads, a replica, restarts, connections, suspends. */
function busyWorld() {
  const given = givenProject({ seed: 4 });
  const { sim, endpointId, path, branchId, settle } = given;
  const watch = watchMonitors(sim);
  sim.request('PATCH', path(`/endpoints/${endpointId}`), {
    endpoint: { autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 2 },
  });
  settle();
  sim.request('POST', path('/endpoints'), { endpoint: { branch_id: branchId, type: 'read_only' } });
  sim.addWorkload({
    kind: 'poisson',
    endpointId,
    rates: { weekday: Array(24).fill(4), weekend: Array(24).fill(1) },
    session: {
      duration: { dist: 'exponential', mean: '3m' },
      cpu: { dist: 'uniform', min: 0.1, max: 1.8 },
    },
  });
  const held = sim.connect(endpointId);
  sim.advance('2h');
  held.close();
  sim.request('POST', path(`/endpoints/${endpointId}/restart`));
  sim.advance('2d');
  return { ...given, watch };
}

/** Stamps hand-written events with consecutive positions. */
function log(...events: object[]): SimEvent[] {
  return events.map((e, seq) => ({ at: 1_000 * seq, ...e, seq }) as SimEvent);
}

/** A state change of compute `e` (of project `p`). */
const state = (currentState: string, pendingState: string | null = null) => ({
  type: 'ComputeStateChanged',
  projectId: 'p',
  endpointId: 'e',
  currentState,
  pendingState,
});

describe('monitors on a clean run', () => {
  it('stay silent online and offline', () => {
    const { sim, watch } = busyWorld();
    expect(sim.log.length).toBeGreaterThan(500);
    expect([...sim.log].some((e) => e.type === 'ComputeResized')).toBe(true);
    expect(watch.stop()).toBeUndefined();
    expect(checkLog(sim.log)).toBeUndefined();
    expect(() => assertLogClean(sim.log)).not.toThrow();
  });
});

describe('a watch started in the middle of a run', () => {
  it('knows the computes and branches from before it started', () => {
    const { sim, endpointId, branchId, path, settle } = givenProject();
    const watch = watchMonitors(sim);
    sim.request('PATCH', path(`/endpoints/${endpointId}`), {
      endpoint: { autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 2 },
    });
    settle();
    sim.connect(endpointId, { cpu: 1.5 } as never);
    sim.advance('10m');
    expect(watch.stop()).toBeUndefined();
    const late = watchMonitors(sim, [oneReadWritePerBranch()]);
    sim.request('POST', path('/endpoints'), {
      endpoint: { branch_id: branchId, type: 'read_write' },
    });
    expect(late.stop()).toBeUndefined();
    const forged = [...sim.log];
    const first = forged.find((e) => e.type === 'EndpointCreated')!;
    const late2 = checkLog(
      [...forged, { ...first, endpointId: 'ep-forged', seq: forged.length }],
      [oneReadWritePerBranch()],
    );
    expect(late2?.message).toMatch(/two read_write computes/);
  });

  it("forgets a deleted project's computes", () => {
    const rw = {
      type: 'EndpointCreated',
      projectId: 'p',
      endpointId: 'a',
      branchId: 'b1',
      endpointType: 'read_write',
    };
    const events = log(rw, { type: 'ProjectDeleted', projectId: 'p' }, { ...rw, endpointId: 'b' });
    expect(checkLog(events, [oneReadWritePerBranch()])).toBeUndefined();
  });
});

describe('each monitor fires on a violating log', () => {
  it('oneReadWritePerBranch: a second primary, or a primary moved onto a taken branch', () => {
    const rw = (endpointId: string, branchId: string) => ({
      type: 'EndpointCreated',
      endpointId,
      branchId,
      endpointType: 'read_write',
    });
    expect(checkLog(log(rw('a', 'b1'), rw('b', 'b1')), [oneReadWritePerBranch()])).toMatchObject({
      monitor: 'oneReadWritePerBranch',
      seq: 1,
      message: 'branch b1 has two read_write computes: a and b',
    });
    const moved = log(rw('a', 'b1'), rw('b', 'b2'), {
      type: 'EndpointUpdated',
      endpointId: 'b',
      changes: { branchId: 'b1' },
    });
    expect(checkLog(moved, [oneReadWritePerBranch()])?.seq).toBe(2);
    const replaced = log(
      rw('a', 'b1'),
      { type: 'EndpointDeleted', endpointId: 'a' },
      rw('b', 'b1'),
    );
    expect(checkLog(replaced, [oneReadWritePerBranch()])).toBeUndefined();
  });

  it('operationsEventuallyTerminal: still running past the bound, online or at the end', () => {
    const created = {
      type: 'OperationCreated',
      operationId: 'op1',
      projectId: 'p',
      action: 'start_compute',
    };
    const stuck = log(created, { type: 'OperationFailed', operationId: 'op1' });
    expect(checkLog(stuck, [operationsEventuallyTerminal({ within: '1m' })])).toBeUndefined();
    const events = new Subject<SimEvent>();
    const fakeSim = { events$: events, log: [], now: () => 90_000 } as unknown as Simulation;
    const watch = watchMonitors(fakeSim, [operationsEventuallyTerminal({ within: '1m' })]);
    stuck.forEach((e) => events.next(e));
    expect(watch.violation).toBeUndefined();
    expect(watch.stop()).toMatchObject({
      seq: undefined,
      at: 90_000,
      message: 'operation op1 (start_compute) is not terminal 1m after it was created',
    });
    const late = log(created, { type: 'ClockAdvanced' }, { type: 'ClockAdvanced' });
    expect(checkLog(late, [operationsEventuallyTerminal({ within: '1s' })])?.seq).toBe(2);
    const done = log(
      created,
      { type: 'ClockAdvanced' },
      { type: 'OperationErrored', operationId: 'op1' },
    );
    expect(checkLog(done, [operationsEventuallyTerminal({ within: '1s' })])).toBeUndefined();
  });

  it('noBillingWhileIdle: a resize of a suspended compute', () => {
    const resized = { type: 'ComputeResized', endpointId: 'e', fromCu: 0.25, toCu: 1 };
    expect(
      checkLog(log(state('active'), state('idle'), resized), [noBillingWhileIdle()]),
    ).toMatchObject({
      seq: 2,
      message: 'compute e was resized 0.25→1 CU while idle',
    });
    expect(
      checkLog(log(state('idle'), state('active'), resized), [noBillingWhileIdle()]),
    ).toBeUndefined();
    expect(
      checkLog(log(state('active'), state('active', 'idle'), resized), [noBillingWhileIdle()])
        ?.message,
    ).toBe('compute e was resized 0.25→1 CU while active (going idle)');
  });

  it('noConnectionOnIdleCompute: opening on an idle compute, or suspending with one open', () => {
    const open = { type: 'ConnectionOpened', endpointId: 'e', connectionId: 'c1' };
    const monitors = () => [noConnectionOnIdleCompute()];
    expect(checkLog(log(state('idle'), open), monitors())?.message).toBe(
      'connection c1 opened on compute e while idle',
    );
    expect(checkLog(log(state('active'), open, state('idle')), monitors())?.message).toBe(
      'compute e became idle with 1 connection(s) open',
    );
    expect(checkLog(log(state('active', 'idle'), open), monitors())?.message).toBe(
      'connection c1 opened on compute e while active (going idle)',
    );
    const dropped = { type: 'ConnectionsDropped', endpointId: 'e', connectionIds: ['c1'] };
    expect(
      checkLog(log(state('active'), open, dropped, state('idle')), monitors()),
    ).toBeUndefined();
  });

  it('monotonicTimestamps: time going back, or a gap in the positions', () => {
    const back = [
      { type: 'ClockAdvanced', at: 5, seq: 0 },
      { type: 'ClockAdvanced', at: 4, seq: 1 },
    ] as SimEvent[];
    expect(checkLog(back, [monotonicTimestamps()])?.message).toBe(
      'time went back: event 1 at 4 after 5',
    );
    const gap = [
      { type: 'ClockAdvanced', at: 5, seq: 0 },
      { type: 'ClockAdvanced', at: 5, seq: 2 },
    ] as SimEvent[];
    expect(checkLog(gap, [monotonicTimestamps()])?.message).toBe('log position 2 follows 0');
  });

  it('a user-supplied monitor fires online, with the events around the violation', () => {
    const { sim, endpointId } = givenProject();
    const noWakeUps = defineMonitor('noWakeUps', (event) =>
      event.type === 'ComputeStateChanged' && event.currentState === 'active' && event.at > idleAt
        ? 'woke up'
        : undefined,
    );
    sim.runUntilIdle();
    const idleAt = sim.now();
    const watch = watchMonitors(sim, [noWakeUps], { context: 2 });
    sim.advance('1h');
    expect(watch.violation).toBeUndefined();
    sim.connect(endpointId);
    sim.advance('1m');
    const violation = watch.violation!;
    expect(violation.monitor).toBe('noWakeUps');
    expect(violation.around.map((e) => e.seq)).toEqual(
      [-2, -1, 0, 1, 2].map((d) => violation.seq! + d),
    );
    expect(() => watch.assertClean()).toThrow(MonitorViolationError);
    expect(() => watch.assertClean()).toThrow(/noWakeUps: woke up\n {2}at .*\(event \d+\)\n/);
  });

  it('default monitors catch a violation spliced into a clean log', () => {
    const { sim, endpointId } = busyWorld();
    const events = [...sim.log];
    const idleAt = events.findIndex(
      (e) =>
        e.type === 'ComputeStateChanged' &&
        e.endpointId === endpointId &&
        e.currentState === 'idle',
    );
    const spliced: SimEvent = {
      ...(events[idleAt] as SimEvent),
      type: 'ComputeResized',
      fromCu: 1,
      toCu: 2,
    } as SimEvent;
    const tampered = [...events.slice(0, idleAt + 1), spliced, ...events.slice(idleAt + 1)].map(
      (e, seq) => ({ ...e, seq }),
    );
    expect(checkLog(tampered, defaultMonitors())).toMatchObject({
      monitor: 'noBillingWhileIdle',
      seq: idleAt + 1,
    });
  });

  it('keep the last `context` events before a violation, oldest first, whatever the context', () => {
    const ticks = log(...Array.from({ length: 12 }, () => ({ type: 'ClockAdvanced' })));
    const firesAt = (seq: number) =>
      defineMonitor('firesAt', (event) => (event.seq === seq ? 'fired' : undefined));
    const around = (context: number, seq = 9) =>
      checkLog(ticks, [firesAt(seq)], { context })?.around.map((e) => e.seq);
    expect(around(0)).toEqual([9]);
    expect(around(3)).toEqual([6, 7, 8, 9, 10, 11]);
    expect(around(4, 2)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(around(2.5)).toEqual([7, 8, 9, 10, 11]);
    expect(around(-1)).toEqual([9]);
    expect(around(Number.NaN)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const atEnd = defineMonitor(
      'atEnd',
      () => undefined,
      () => 'never settled',
    );
    expect(checkLog(ticks, [atEnd], { context: 4 })?.around.map((e) => e.seq)).toEqual([
      8, 9, 10, 11,
    ]);
  });

  it('operationsEventuallyTerminal: an operation created out of time order is still watched', () => {
    const within = { within: '10s' };
    const op = (operationId: string, at: number) => ({
      type: 'OperationCreated',
      operationId,
      projectId: 'p',
      action: 'start_compute',
      at,
    });
    const stream = log(
      op('first', 50_000),
      op('early', 40_000),
      { type: 'OperationFinished', operationId: 'first', at: 52_000 },
      { type: 'ClockAdvanced', at: 55_000 },
    );
    expect(checkLog(stream, [operationsEventuallyTerminal(within)])).toMatchObject({
      seq: 2,
      message: 'operation early (start_compute) is not terminal 10s after it was created',
    });
    const settled = log(
      op('a', 0),
      { type: 'OperationFinished', operationId: 'a', at: 5_000 },
      op('b', 8_000),
      { type: 'ClockAdvanced', at: 17_000 },
      { type: 'ClockAdvanced', at: 19_000 },
    );
    expect(checkLog(settled, [operationsEventuallyTerminal(within)])).toMatchObject({ seq: 4 });
  });
});

describe('a stuck operation in a client run', () => {
  /** Every `create_timeline` stays `scheduling` for `delayMs` before it runs. */
  const delayedBy = (delayMs: number) => ({
    operations: {
      create_timeline: {
        ...{ failureRate: 0, maxRetries: 0, retryDelayMs: 0 },
        ...{ delayRate: 1, delayMs: [delayMs, delayMs] as const },
      },
    },
  });

  it('a slow operation that ends inside six hours is not reported', async () => {
    const run = await runClient(
      async ({ fetch, baseURL, sleep }) => {
        await fetch(`${baseURL}/projects`, { method: 'POST', body: '{"project":{}}' });
        await sleep(8 * 3_600_000); // long enough for the operation to end, 5 h in
      },
      { seed: 1, faults: delayedBy(5 * 3_600_000), within: '1d' },
    );
    expect(run.outcome).toBe('returned');
    const ended = [...run.sim.log].some((e) => e.type === 'OperationFinished');
    expect(ended).toBe(true);
    expect(checkLog(run.sim.log, defaultMonitors())).toBeUndefined();
  });

  it('is reported by the default monitors within the run, whose client polls in vain', async () => {
    const threeDays = 3 * 86_400_000;
    const faults = delayedBy(threeDays);
    const run = await runClient(
      async ({ fetch, baseURL, sleep }) => {
        const created = await fetch(`${baseURL}/projects`, {
          method: 'POST',
          body: '{"project":{}}',
        });
        const { project, operations } = (await created.json()) as {
          project: { id: string };
          operations: { id: string }[];
        };
        // No deadline: it polls for as long as the run lets it.
        for (const { id } of operations)
          for (;;) {
            const polled = await fetch(`${baseURL}/projects/${project.id}/operations/${id}`);
            const { operation } = (await polled.json()) as { operation: { status: string } };
            if (operation.status === 'finished') break;
            await sleep(60_000);
          }
      },
      { seed: 1, faults, within: '1d' },
    );
    expect(run.outcome).toBe('timed_out');
    expect(checkLog(run.sim.log, defaultMonitors())).toMatchObject({
      monitor: 'operationsEventuallyTerminal',
      message: expect.stringMatching(/create_timeline\) is not terminal 6h after it was created/),
    });
  });
});
