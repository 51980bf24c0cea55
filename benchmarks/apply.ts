/**
 * What applying an event costs the control plane, by kind and by aggregate (issue 48's first
 * measurement, the figures a port is judged against): the benchmark fleet's log from its first
 * event is replayed through the control plane (evolve, which records the paths it changes, and the
 * timers it arms; no decisions, no log kept), once untimed and once with each of the two parts timed per event
 * kind (the timer's own cost, measured on an empty call, taken off). Beside it, the same fleet's
 * live run in the same process: what an event costs with decisions and the log, so each kind's
 * share of a live event reads off one run, and a live event's cost splits into the log, apply with
 * the agenda, and decisions with the engine's loop (a third run, keeping no log).
 *
 * Run: npm run bench -- apply   (FLEET_PROJECTS, default 1,000; FLEET_DAYS, default 3)
 */
import { Engine, type LoggedEvent } from '../src/engine/index.js';
import { createControlPlane, type ControlPlane } from '../src/model/controlPlane.js';
import { resolveProfile } from '../src/domain/profile.js';
import { ColumnState, PORTED_KINDS, toHandleEvents } from './support/columnsPrototype.js';
import { buildFleet, runFleet } from './support/fleet.js';
import { wholeFromEnv } from './support/measure.js';

const PROJECTS = wholeFromEnv('FLEET_PROJECTS', 1_000);
const DAYS = wholeFromEnv('FLEET_DAYS', 3);

/** The aggregate each kind of the fleet's log belongs to (the port's order: computes and operations first). */
const AGGREGATE: Readonly<Record<string, string>> = {
  EndpointCreated: 'compute',
  EndpointUpdated: 'compute',
  EndpointDeleted: 'compute',
  ComputeStateChanged: 'compute',
  ComputeResized: 'compute',
  OperationCreated: 'operation',
  OperationStarted: 'operation',
  OperationFinished: 'operation',
  OperationFailed: 'operation',
  OperationErrored: 'operation',
  OperationCancelled: 'operation',
  OperationsPruned: 'operation',
  ConnectionRequested: 'connection',
  ConnectionOpened: 'connection',
  ConnectionRefused: 'connection',
  ConnectionClosed: 'connection',
  ConnectionsDropped: 'connection',
  WorkloadAttached: 'workload',
  SessionArrived: 'workload',
  ProjectCreated: 'project',
  BranchCreated: 'branch',
  BranchStateChanged: 'branch',
  AvailabilityCheckScheduled: 'branch',
};

/** Nanoseconds spent in each part, and events seen, for one kind. */
interface KindCost {
  count: number;
  evolve: number;
  timers: number;
}

const now = (): bigint => process.hrtime.bigint();

/** The control plane with each of its two apply parts timed per event kind into `costs`. */
function timed(plane: ControlPlane, costs: Map<string, KindCost>): ControlPlane {
  const costOf = (type: string): KindCost => {
    let cost = costs.get(type);
    if (cost === undefined) costs.set(type, (cost = { count: 0, evolve: 0, timers: 0 }));
    return cost;
  };
  return {
    ...plane,
    evolve(draft, event, touch) {
      const started = now();
      plane.evolve(draft, event, touch);
      const cost = costOf(event.type);
      cost.evolve += Number(now() - started);
      cost.count += 1;
    },
    armTimers(event, state, arm) {
      const started = now();
      plane.armTimers(event, state, arm);
      costOf(event.type).timers += Number(now() - started);
    },
  };
}

/** What timing an empty call costs, in ns (taken off each timed part). */
function timerOverhead(): number {
  const calls = 1_000_000;
  let spent = 0;
  const empty = (): void => {};
  for (let i = 0; i < calls; i++) {
    const started = now();
    empty();
    spent += Number(now() - started);
  }
  return spent / calls;
}

/** Replays `events` through `plane` with no log kept; the wall seconds. */
function replay(plane: ControlPlane, events: readonly LoggedEvent[]): number {
  const started = now();
  Engine.replay(plane, events, { log: 'none', stepLimit: Number.MAX_SAFE_INTEGER });
  return Number(now() - started) / 1e9;
}

const micros = (ns: number, count: number) => (count === 0 ? 0 : ns / count / 1_000);
const pad = (text: string, width: number) => text.padStart(width);

/** Runs the apply benchmark; it has no target (it is the baseline a port is measured against). */
export function runApplyBenchmark(): boolean {
  runFleet(buildFleet(Math.min(PROJECTS, 200), 'memory'), 1); // warm-up: the JIT, not the figures
  const sim = buildFleet(PROJECTS, 'memory');
  const live = runFleet(sim, DAYS);
  const unlogged = runFleet(buildFleet(PROJECTS, 'none'), DAYS);
  const events = [...sim.log] as LoggedEvent[];
  const header = events[0] as LoggedEvent & { config?: unknown };
  const profile = resolveProfile(header.config);
  if (!profile.ok) throw new Error(`the fleet's profile: ${profile.error}`);
  const plane = createControlPlane(profile.value);
  replay(plane, events); // warm-up
  const untimed = replay(createControlPlane(profile.value), events);
  const costs = new Map<string, KindCost>();
  replay(timed(createControlPlane(profile.value), costs), events);
  const overhead = timerOverhead();
  const applied = [...costs.values()].reduce((sum, c) => sum + c.count, 0);
  const liveMicros = (live.seconds * 1e6) / live.events;
  console.log(
    `\nApply cost by kind: ${PROJECTS.toLocaleString('en-US')} computes × ${DAYS} days, ` +
      `${events.length.toLocaleString('en-US')} events.` +
      `\nLive run ${liveMicros.toFixed(2)} µs an event (decisions, log in memory, apply); ` +
      `replay with no log ${((untimed * 1e6) / applied).toFixed(2)} µs an event (apply alone, agenda included); ` +
      `timing one call costs ${overhead.toFixed(0)} ns, taken off each part below.`,
  );
  console.log(
    `${'kind'.padEnd(28)}${pad('events', 11)}${pad('share', 7)}${pad('evolve', 8)}${pad('timers', 8)}${pad('apply', 8)}  µs an event`,
  );
  const byAggregate = new Map<string, { count: number; ns: number }>();
  const rows = [...costs.entries()].sort((a, b) => b[1].count - a[1].count);
  let totalNs = 0;
  for (const [kind, cost] of rows) {
    const part = (ns: number) => Math.max(0, ns - overhead * cost.count);
    const evolve = part(cost.evolve);
    const timers = part(cost.timers);
    const ns = evolve + timers;
    totalNs += ns;
    const aggregate = AGGREGATE[kind] ?? 'other';
    const sum = byAggregate.get(aggregate) ?? { count: 0, ns: 0 };
    byAggregate.set(aggregate, { count: sum.count + cost.count, ns: sum.ns + ns });
    console.log(
      `${kind.padEnd(28)}${pad(cost.count.toLocaleString('en-US'), 11)}` +
        `${pad(`${((cost.count / applied) * 100).toFixed(1)}%`, 7)}` +
        `${pad(micros(evolve, cost.count).toFixed(2), 8)}` +
        `${pad(micros(timers, cost.count).toFixed(2), 8)}${pad(micros(ns, cost.count).toFixed(2), 8)}`,
    );
  }
  console.log(
    `\nBy aggregate: share of events, apply µs an event of that aggregate, and of a fleet event`,
  );
  for (const [aggregate, sum] of [...byAggregate.entries()].sort((a, b) => b[1].ns - a[1].ns))
    console.log(
      `${aggregate.padEnd(12)}${pad(`${((sum.count / applied) * 100).toFixed(1)}%`, 7)}` +
        `${pad(micros(sum.ns, sum.count).toFixed(2), 8)}${pad((sum.ns / applied / 1_000).toFixed(3), 8)}`,
    );
  console.log(
    `all${' '.repeat(9)}${pad('100%', 7)}${pad((totalNs / applied / 1_000).toFixed(2), 8)} µs an event applied, ` +
      `of the live ${liveMicros.toFixed(2)}`,
  );
  // A live event's cost in parts: the log (live with it less live without), apply and the agenda
  // (the replay), and what is left: decisions and the engine's loop.
  const unloggedMicros = (unlogged.seconds * 1e6) / unlogged.events;
  const replayMicros = (untimed * 1e6) / applied;
  console.log(
    `\nA live event, ${liveMicros.toFixed(2)} µs: the log ${(liveMicros - unloggedMicros).toFixed(2)}, ` +
      `apply and agenda ${replayMicros.toFixed(2)} (the replay), decisions and the loop ` +
      `${(unloggedMicros - replayMicros).toFixed(2)} (live with no log, ${unloggedMicros.toFixed(2)}, less the replay)`,
  );
  prototypeFigures(events, costs, overhead, applied, liveMicros);
  return true;
}

/**
 * The prototype's apply of the ported kinds (support/columnsPrototype.ts) beside today's evolve of
 * the same kinds, and what a live event would cost with the difference taken off.
 */
function prototypeFigures(
  events: readonly LoggedEvent[],
  costs: ReadonlyMap<string, KindCost>,
  overhead: number,
  applied: number,
  liveMicros: number,
): void {
  const { events: handled, projects, computes, operations } = toHandleEvents(events);
  const run = (timedKinds?: number[]): number => {
    const state = new ColumnState(projects, computes, operations);
    const started = now();
    for (let i = 0; i < handled.length; i++) {
      const event = handled[i]!;
      if (timedKinds === undefined) state.apply(event);
      else {
        const at = now();
        state.apply(event);
        timedKinds[event.kind]! += Number(now() - at);
      }
      if ((i & 4095) === 4095) state.clearMarks();
    }
    return Number(now() - started);
  };
  run();
  const whole = run();
  const byKind = PORTED_KINDS.map(() => 0);
  run(byKind);
  console.log(
    `\nPrototype (issue 48): computes and operations in columns by integer handle, changed in place` +
      `\n(${handled.length.toLocaleString('en-US')} events, ${micros(whole, handled.length).toFixed(3)} µs each untimed); ` +
      `evolve alone, µs an event, today against the prototype`,
  );
  let savedNs = 0;
  PORTED_KINDS.forEach((kind, index) => {
    const today = costs.get(kind);
    if (today === undefined) return;
    const count = today.count;
    const before = Math.max(0, today.evolve - overhead * count);
    const after = Math.max(0, byKind[index]! - overhead * count);
    savedNs += before - after;
    console.log(
      `${kind.padEnd(28)}${pad(count.toLocaleString('en-US'), 11)}${pad(micros(before, count).toFixed(2), 8)}` +
        `${pad(micros(after, count).toFixed(2), 8)}${pad(`${(before / Math.max(after, 1)).toFixed(1)}×`, 8)}`,
    );
  });
  const saved = savedNs / applied / 1_000;
  console.log(
    `a live event ${liveMicros.toFixed(2)} µs, less what the prototype saves these kinds' evolve ` +
      `(${saved.toFixed(2)} µs an event of the fleet): ${(liveMicros - saved).toFixed(2)} µs, ` +
      `${(liveMicros / (liveMicros - saved)).toFixed(2)}× as fast (timers, decisions and the log unchanged)`,
  );
}
