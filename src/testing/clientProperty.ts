/**
 * The documented recipe in one call: a property over generated worlds that makes the client's
 * setup on a fresh simulation, runs the client while the world plays around it, and judges the run
 * (the job's outcome, the oracles, the monitors, the property's own check). A failure carries a
 * test that replays it (`counterexample.ts`).
 */
import fc from 'fast-check';
import type { Duration } from '../core/duration.js';
import { errorText } from '../core/errorText.js';
import { Simulation } from '../simulation/simulation.js';
import { faultProfile } from './arbitraries/faultArbitraries.js';
import { timeline } from './arbitraries/timelineArbitraries.js';
import { judgeRun, type ClientVerdict, type JobExpectation } from './clientVerdict.js';
import { ClientPropertyError, CounterexampleError } from './counterexample.js';
import { defaultMonitors } from './monitors/defaultMonitors.js';
import type { Monitor } from './monitors/monitor.js';
import type { ClientOracle } from './oracles/clientOracle.js';
import { defaultOracles } from './oracles/defaultOracles.js';
import {
  SimHarness,
  type ClientContext,
  type ClientRun,
  type HarnessOptions,
} from './simHarness.js';
import { pruneFaults } from './timeline/pruneFaults.js';
import type { Timeline } from './timeline/timeline.js';

/** What a client property is made of. */
export interface ClientPropertySpec<S, T> {
  /**
   * The name a replay calls it by: the name of the variable you assign the property to, so that
   * the test a failure prints (`name.replay(…)`) runs as pasted beside it.
   */
  readonly name: string;
  /**
   * Makes the client's starting point on the run's fresh simulation (requests, then
   * `sim.runUntilIdle()`), before the world, its faults and the client start; what it returns
   * (plain data: ids, names) goes to the client. Default: nothing.
   */
  readonly setup?: (sim: Simulation) => S;
  /** The code under test, called once a run with the harness's context and the setup's value. */
  readonly client: (ctx: ClientContext, setup: S) => Promise<T> | T;
  /** The worlds to run in. Default `timeline({ maxSteps: 10, faults: faultProfile() })`. */
  readonly worlds?: fc.Arbitrary<Timeline>;
  /**
   * What the job must come to. `'success'` (default): it returns, which a careful client does in
   * every world of `faultProfile()`. `'end'`: it returns or throws, never waits forever: for
   * `faultProfile({ preset: 'harsh' })`.
   */
  readonly expect?: JobExpectation;
  /** Oracles over the client's record. Default `defaultOracles()`, or none when `expect: 'end'`. */
  readonly oracles?: readonly ClientOracle[];
  /**
   * Makes the monitors over a run's log, a fresh set each run (monitors keep state). Default
   * `defaultMonitors`, or none when `expect: 'end'` (harsh faults leave operations stuck on purpose).
   */
  readonly monitors?: () => readonly Monitor[];
  /** Most virtual time a run may take. Default `'1d'`. */
  readonly within?: Duration;
  /** The harness's other options (an API key to require, the simulation's). */
  readonly harness?: Omit<HarnessOptions, 'seed' | 'faults'>;
  /** Assertions of your own on a run that the rest passed (what the job left behind). */
  readonly check?: (run: ClientRun<T>, setup: S) => void | Promise<void>;
}

/** A property of a client, ready to run, check or replay. */
export interface ClientProperty<T> {
  readonly name: string;
  /** The fast-check property, for `fc.assert`/`fc.check` with parameters of your own. */
  readonly property: fc.IAsyncPropertyWithHooks<[Timeline]>;
  /**
   * Runs the property (`numRuns` 100 unless `parameters` say otherwise); when a run fails, throws a
   * `CounterexampleError` with the shrunk world (fault parts it does not need removed), what
   * failed, and a test that replays it.
   */
  assert(parameters?: fc.Parameters<[Timeline]>): Promise<void>;
  /** Runs one world and judges it: the verdict, failing or not. */
  judge(world: Timeline): Promise<ClientVerdict<T>>;
  /**
   * Runs one world (a printed counterexample) and throws a `ClientPropertyError` when it fails, as
   * the property did; returns the run when it passes.
   */
  replay(world: Timeline): Promise<ClientRun<T>>;
}

/** The default worlds: up to 10 steps under the honest fault profile. */
function defaultWorlds(): fc.Arbitrary<Timeline> {
  return timeline({ maxSteps: 10, faults: faultProfile() });
}

/** A property of a client (see `ClientPropertySpec`). */
export function clientProperty<T, S = undefined>(
  spec: ClientPropertySpec<S, T>,
): ClientProperty<T> {
  if (!/^[A-Za-z_$][\w$]*$/.test(spec.name))
    throw new RangeError(
      `clientProperty: name must be the variable the property is assigned to (an identifier), not ${JSON.stringify(spec.name)}`,
    );
  const expect = spec.expect ?? 'success';
  const judges = {
    expect,
    oracles: spec.oracles ?? (expect === 'end' ? [] : defaultOracles()),
    monitors: spec.monitors ?? (expect === 'end' ? () => [] : defaultMonitors),
  };
  const { apiKey, ...simulationOptions } = spec.harness ?? {};
  const key = apiKey === undefined ? {} : { apiKey };
  // A fork replays the log: with none kept in memory, the faults apply from the start instead.
  const forkable = simulationOptions.log === undefined || simulationOptions.log === 'memory';
  /**
   * The run's harness, its setup made before the world's faults begin: operation faults are laid
   * over the profile from the instant it is done (request and connection faults act at the
   * client's edge during the run anyway).
   */
  const prepared = (world: Timeline): { harness: SimHarness; setup: S } => {
    const options = { ...simulationOptions, seed: world.seed };
    if (!forkable) {
      const harness = new SimHarness({ ...options, ...key, faults: world.faults });
      return { harness, setup: spec.setup?.(harness.sim) as S };
    }
    const { operations, ...atTheEdge } = world.faults;
    const base = new Simulation(options);
    const setup = spec.setup?.(base) as S;
    const simulation =
      operations === undefined ? base : base.fork(base.now(), { profile: { faults: operations } });
    return { harness: new SimHarness({ simulation, faults: atTheEdge, ...key }), setup };
  };
  const judge = async (world: Timeline): Promise<ClientVerdict<T>> => {
    const { harness, setup } = prepared(world);
    const run = await harness.run((ctx) => spec.client(ctx, setup), {
      world: world.steps,
      within: spec.within ?? '1d',
    });
    const verdict = judgeRun(run, judges);
    if (verdict.labels.length > 0 || spec.check === undefined) return verdict;
    try {
      await spec.check(run, setup);
      return verdict;
    } catch (error) {
      return judgeRun(run, judges, { error });
    }
  };
  const replay = async (world: Timeline): Promise<ClientRun<T>> => {
    const verdict = await judge(world);
    if (verdict.labels.length > 0) throw new ClientPropertyError(spec.name, world, verdict);
    return verdict.run;
  };
  const property = fc.asyncProperty(spec.worlds ?? defaultWorlds(), async (world) => {
    await replay(world);
  });
  return {
    name: spec.name,
    property,
    judge,
    replay,
    async assert(parameters = {}) {
      const details = await fc.check(property, { numRuns: 100, ...parameters });
      if (!details.failed) return;
      const world = details.counterexample?.[0];
      const cause = details.errorInstance;
      // Anything else failed the run (the setup threw, say): fast-check's own report says what.
      if (world === undefined || !(cause instanceof ClientPropertyError))
        throw new Error(`${fc.defaultReportMessage(details)}\nwhat failed: ${errorText(cause)}`, {
          cause,
        });
      const pruned = await pruneFaults(world, async (w) => (await judge(w)).labels.length > 0);
      const verdict = pruned === world ? cause.verdict : await judge(pruned);
      throw new CounterexampleError(spec.name, pruned, verdict, details);
    },
  };
}
