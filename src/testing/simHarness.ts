/**
 * The harness that runs a user's async client against an in-process simulation: it hands the
 * client a `fetch`, an axios adapter, virtual timers and connections, records what the client does,
 * injects the fault profile, and moves virtual time only while the client waits on a virtual timer.
 */
import { parseDuration, type Duration } from '../core/duration.js';
import type { Connection } from '../simulation/connection.js';
import { Simulation } from '../simulation/simulation.js';
import type { SimulationOptions } from '../simulation/simulationOptions.js';
import { createAxiosAdapter, type SimAxiosAdapter } from './axiosAdapter.js';
import { ClientEdge } from './clientEdge.js';
import type { ClientRecord } from './clientRecord.js';
import { ConnectionDropper } from './connectionDropper.js';
import { withFaults, type FaultProfile } from './faultProfile.js';
import { createSimFetch, SIM_ORIGIN, type SimFetch } from './simFetch.js';
import { VirtualTimers, type VirtualTimeout } from './virtualTimers.js';
import { yieldToClient } from './yieldToClient.js';
import type { TimelineStep } from './timeline/timeline.js';
import { TimelineWorld } from './timeline/timelineWorld.js';

/** Options of a harness: the simulation's, plus faults and an API key to require. */
export interface HarnessOptions extends SimulationOptions {
  readonly faults?: FaultProfile;
  /**
   * A simulation to run on instead of a new one (the other simulation options are then not used).
   * Operation faults live in a simulation's profile, so `faults` may then hold only request and
   * connection faults; give a simulation its operation faults when making it (`withFaults`) or
   * from an instant on (`sim.fork(sim.now(), { profile: { faults } })`).
   */
  readonly simulation?: Simulation;
  /** A personal API key every request must carry. Default: none required. */
  readonly apiKey?: string;
}

/** What the client under test gets. */
export interface ClientContext {
  /** `fetch` over the simulation (any origin; paths under `/api/v2`). */
  readonly fetch: SimFetch;
  /** An axios adapter over the simulation, for the official SDK: `createApiClient({ adapter })`. */
  readonly axiosAdapter: SimAxiosAdapter;
  /** `http://computesim.test/api/v2`. */
  readonly baseURL: string;
  /** The key to send (`Bearer …`); any value works when the harness requires none. */
  readonly apiKey: string;
  /** Waits `ms` of virtual time. */
  readonly sleep: (ms: number) => Promise<void>;
  readonly setTimeout: (callback: () => void, ms?: number) => VirtualTimeout;
  readonly clearTimeout: (handle: VirtualTimeout | undefined) => void;
  /** Virtual time, epoch ms. */
  readonly now: () => number;
  /** Opens a connection, recording what the client needs it for (writes need read_write). */
  readonly connect: (
    endpointId: string,
    options?: { readonly purpose?: 'read' | 'write'; readonly pooled?: boolean },
  ) => Connection;
}

/** How a client run ended. */
export type ClientOutcome =
  /** The client's promise resolved. */
  | 'returned'
  /** It rejected (`error` holds the reason). */
  | 'threw'
  /** Virtual time reached `within` while it was still waiting. */
  | 'timed_out'
  /** It waits on something the harness does not drive (not a virtual timer nor a request). */
  | 'stuck'
  /** It kept sending requests without ever letting virtual time pass. */
  | 'busy';

/** The result of one client run. */
export interface ClientRun<T> {
  readonly outcome: ClientOutcome;
  readonly value?: T;
  readonly error?: unknown;
  /** What the client did, in virtual time. */
  readonly record: ClientRecord;
  readonly sim: Simulation;
  /** Virtual time at the start and at the end of the run, epoch ms. */
  readonly startedAt: number;
  readonly endedAt: number;
}

/** Options of one run. */
export interface ClientRunOptions {
  /** What happens around the client meanwhile (other users' requests, connections), from the start. */
  readonly world?: readonly TimelineStep[];
  /** Most virtual time the client may take. Default `'1d'`. */
  readonly within?: Duration;
  /** Most requests and timer armings without virtual time passing. Default 10,000. */
  readonly maxActionsPerInstant?: number;
}

/** A simulation prepared for client tests. */
export class SimHarness {
  readonly sim: Simulation;
  readonly context: ClientContext;
  readonly #edge: ClientEdge;
  readonly #timers: VirtualTimers;
  readonly #dropper: ConnectionDropper;
  #closed = false;
  #running = false;
  #maxActionsPerInstant = 10_000;
  #actionsInstant = -1;
  #actionsAtInstant = 0;

  constructor(options: HarnessOptions = {}) {
    const { faults, apiKey, simulation: given, ...simulation } = options;
    if (given !== undefined && faults?.operations !== undefined)
      throw new RangeError(
        'SimHarness: operation faults belong to the simulation it is given (withFaults, or a fork ' +
          'with { profile: { faults } }); its `faults` may hold only request and connection faults',
      );
    this.sim = given ?? new Simulation(withFaults(simulation, faults));
    if (apiKey !== undefined) this.sim.addApiKey({ kind: 'personal', key: apiKey });
    this.#edge = new ClientEdge(this.sim, faults?.requests);
    this.#timers = new VirtualTimers(() => this.sim.now());
    this.#dropper = new ConnectionDropper(this.sim, faults?.connections?.dropsPerHour ?? 0);
    const fetch = createSimFetch(this.#edge);
    this.context = {
      fetch: (input, init) => this.#admit() ?? fetch(input, init),
      axiosAdapter: createAxiosAdapter(this.#edge, () => this.#admit()),
      baseURL: `${SIM_ORIGIN}/api/v2`,
      apiKey: apiKey ?? 'csim-test-key',
      sleep: this.#timers.sleep,
      setTimeout: this.#timers.setTimeout,
      clearTimeout: this.#timers.clearTimeout,
      now: () => this.sim.now(),
      connect: (endpointId, connectOptions = {}) =>
        this.#edge.connect(
          endpointId,
          connectOptions.purpose ?? 'read',
          connectOptions.pooled ?? false,
        ),
    };
  }

  /**
   * Lets one request through, or parks it for good (a promise that never settles) once the client
   * has sent more than the per-instant limit without waiting: a client spinning on requests that
   * answer at once never yields to the host's event loop, so the harness could not stop it later.
   */
  #admit(): Promise<never> | undefined {
    if (this.#closed)
      throw new Error('this client run is over: the harness takes no more requests');
    const now = this.sim.now();
    if (now !== this.#actionsInstant) {
      this.#actionsInstant = now;
      this.#actionsAtInstant = 0;
    }
    this.#actionsAtInstant += 1;
    return this.#actionsAtInstant > this.#maxActionsPerInstant
      ? new Promise<never>(() => {})
      : undefined;
  }

  /** What the client has done so far. */
  get record(): ClientRecord {
    return {
      requests: this.#edge.requests,
      connections: this.#edge.connections,
      statements: this.#edge.statements,
    };
  }

  /** Moves virtual time (dropping connections on the way when the fault profile says so). */
  advanceTo(instant: number): void {
    this.#dropper.advanceTo(instant);
  }

  /**
   * Runs `client` to its end, moving virtual time to each virtual timer it waits on, in order. The
   * run is deterministic: the same seed, faults and client give the same record and log.
   */
  async run<T>(
    client: (context: ClientContext) => Promise<T> | T,
    options: ClientRunOptions = {},
  ): Promise<ClientRun<T>> {
    if (this.#running || this.#closed) throw new Error('a harness runs one client, once');
    this.#running = true;
    const startedAt = this.sim.now();
    const deadline = startedAt + parseDuration(options.within ?? '1d');
    const maxActions = options.maxActionsPerInstant ?? 10_000;
    this.#maxActionsPerInstant = maxActions;
    const world = new TimelineWorld(this.sim, options.world ?? [], startedAt);
    world.runDue();
    let settled: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
    void Promise.resolve()
      .then(() => client(this.context))
      .then(
        (value) => (settled = { ok: true, value }),
        (error: unknown) => (settled = { ok: false, error }),
      );
    let outcome: ClientOutcome | undefined;
    let actionsAtInstant = 0;
    for (;;) {
      const quiet = await this.#quiesce(() => settled !== undefined, maxActions);
      actionsAtInstant += quiet.actions;
      if (settled !== undefined) break;
      if (actionsAtInstant > maxActions || this.#actionsAtInstant > maxActions) {
        outcome = 'busy';
        break;
      }
      const due = this.#timers.nextDue;
      if (due === undefined) {
        outcome = 'stuck';
        break;
      }
      const worldDue = world.nextDue;
      if (worldDue !== undefined && worldDue <= due && worldDue <= deadline) {
        this.advanceTo(worldDue);
        world.runDue();
        continue;
      }
      if (due > deadline) {
        this.advanceTo(deadline);
        outcome = 'timed_out';
        break;
      }
      const next = this.#timers.takeNext();
      if (next === undefined) break;
      if (next.dueAt > this.sim.now()) actionsAtInstant = 0;
      this.advanceTo(next.dueAt);
      next.wake();
    }
    this.#closed = true;
    const base = { record: this.record, sim: this.sim, startedAt, endedAt: this.sim.now() };
    if (outcome !== undefined) return { outcome, ...base };
    const result = settled as { ok: true; value: T } | { ok: false; error: unknown };
    return result.ok
      ? { outcome: 'returned', value: result.value, ...base }
      : { outcome: 'threw', error: result.error, ...base };
  }

  /**
   * Yields to the client until it is waiting (no new request or timer for two turns), it has
   * finished, or it keeps acting past the per-instant limit. Returns how many actions it took.
   */
  async #quiesce(finished: () => boolean, limit: number): Promise<{ actions: number }> {
    const activity = () => this.#edge.requests.length + this.#timers.armed;
    const start = activity();
    let last = -1;
    let calm = 0;
    while (calm < 2 && !finished()) {
      await yieldToClient();
      const now = activity();
      calm = now === last ? calm + 1 : 0;
      last = now;
      if (now - start > limit) break;
    }
    return { actions: activity() - start };
  }
}

/** Runs `client` in a new harness (see `SimHarness.run`). */
export function runClient<T>(
  client: (context: ClientContext) => Promise<T> | T,
  options: HarnessOptions & ClientRunOptions = {},
): Promise<ClientRun<T>> {
  const { within, maxActionsPerInstant, world, ...harness } = options;
  return new SimHarness(harness).run(client, {
    ...(within === undefined ? {} : { within }),
    ...(world === undefined ? {} : { world }),
    ...(maxActionsPerInstant === undefined ? {} : { maxActionsPerInstant }),
  });
}
