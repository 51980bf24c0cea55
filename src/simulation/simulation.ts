/**
 * Simulation: the public entry point. Binds the generic engine to the control-plane model and the
 * REST route table, and speaks in user units at its edges (ISO instants, duration strings).
 */
import type { WorkloadInput } from '../workload/workloadSpec.js';
import { own } from '../core/own.js';
import { requestId } from '../core/requestIds.js';
import type { Observable } from 'rxjs';
import { parseDuration, type Duration } from '../core/duration.js';
import { parseInstant, type Instant } from '../core/instant.js';
import {
  resolveProfile,
  type Profile,
  type ProfileChoice,
  asOverrides,
} from '../domain/profile.js';
import { connectionLimits, type ConnectionLimits } from '../domain/computeSize.js';
import type { PostgresAddress } from '../domain/connectionUri.js';
import { errorResponse, type ApiResponse } from '../api/apiResponse.js';
import {
  answerRequest,
  type ApiRequest,
  type PipelineHooks,
  type RequestOptions,
} from '../api/requestPipeline.js';
import { API_KEY_KINDS, apiKeyProblem, keyRingOf, type ApiKey } from '../api/apiKey.js';
import type { RequestTarget } from '../api/requestTarget.js';
import { Connection } from './connection.js';
import { forkRun, type ForkOptions, type ForkSource } from './fork.js';
import type { SettingsChange } from '../model/settingsChange.js';
import { RateLimiter } from '../api/rateLimiter.js';
import { reject, type Rejection } from '../domain/rejection.js';
import type { Command } from '../model/commands.js';
import { createControlPlane } from '../model/controlPlane.js';
import type { TimerCommand } from '../model/timers.js';
import type { DomainEvent, SimEvent } from '../model/events.js';
import { DOMAIN_EVENT_TYPES } from '../model/eventMeanings.js';
import type { SimState } from '../model/state.js';
import { Engine } from '../engine/engine.js';
import type { RunOptions } from '../engine/engineOptions.js';
import { LogFormatError, LogUnavailableError, StepLimitError } from '../engine/errors.js';
import type { EventLog, LogKeeping } from '../engine/eventLog.js';
import { parseJsonLines } from '../engine/jsonLines.js';
import type { LoggedEvent } from '../engine/loggedEvent.js';

/** Options of a new simulation; every field has a default. */
export interface SimulationOptions {
  /** Seed of every random draw (ids, latencies). Default 1. */
  readonly seed?: number;
  /** Virtual start time. Default `2026-01-05T00:00:00Z` (a Monday). */
  readonly start?: Instant;
  /**
   * The control-plane profile (latencies, timeouts, limits, region): overrides of the seed spec's
   * values, or a named profile (`'current'`: the real service today), or `{ base: 'current', … }`
   * for overrides on top of it.
   */
  readonly profile?: ProfileChoice;
  /** Events between the snapshots `stateAt` starts from. Default 100,000. */
  readonly snapshotEvery?: number;
  /** Timers one run call may fire before it throws instead of hanging. Default 10,000,000. */
  readonly stepLimit?: number;
  /**
   * Events after a state publish whose changed paths are recorded; a publish after more walks the
   * whole state instead. Default 4,096. Tuning only: snapshots are the same either way.
   */
  readonly trackedEvents?: number;
  /**
   * Where the event log keeps its events. `'memory'` (the default): all of them, compactly, so the
   * run can be read, replayed and asked `stateAt` any instant. A `LogSink` (for a file:
   * `LogFileSink.create(path)`): streamed out as they happen in the log's compact format, which
   * `computesim replay`, `LogFile` and `metricsOf` read back; memory stays flat however long the
   * run. `'none'`: counted, not kept, for the fastest what-if runs (pair it with `MetricsProjection`).
   * Without the events in memory, `stateAt` answers for the latest instant only, and reading
   * `log` throws `LogUnavailableError` (its `header` and `length` stay readable). Close a streamed
   * log with `sim.log.close()` when the run is over. A sink that fails (a full disk) ends the call
   * it failed in with `LogUnavailableError` (the state has every event of the call; the file stops
   * short) and refuses every call after it, so nothing runs ahead of the file.
   */
  readonly log?: LogKeeping;
  /** API keys to require (none: every in-process request is accepted). More with `addApiKey`. */
  readonly apiKeys?: readonly ApiKey[];
  /**
   * The real service's rate limits on `sim.request` (700 a minute per caller, 40 a second per
   * route), counted in virtual time: a 429 with `Retry-After` past them. Shorthand for
   * `profile: { rateLimits: { enabled: true } }`. Default off.
   */
  readonly rateLimits?: boolean;
}

/** The named profiles a simulation can start from (`seed`, the default, and `current`). */
export { PROFILE_NAMES, type ProfileName } from '../domain/profile.js';

/** Default virtual start time. */
export const DEFAULT_START = '2026-01-05T00:00:00Z';

/** Reads a simulation's live working state (set in `Simulation`'s static block). */
let readLive: (sim: Simulation) => SimState;

/**
 * The live working state of `sim`, without publishing a snapshot: for code inside the package that
 * copies what it needs at once and keeps no reference (a timeline step picking an id). It changes
 * under the reader with the next call and must never be written to. Not exported from the package.
 */
export function liveStateOf(sim: Simulation): SimState {
  return readLive(sim);
}

/** A deterministic simulation of the control plane over virtual time. */
export class Simulation {
  static {
    readLive = (sim) => sim.#engine.live;
  }

  readonly #engine: ControlPlaneEngine;
  readonly #target: RequestTarget;
  readonly #apiKeys = new Map<string, ApiKey>();
  #postgresFront: PostgresAddress | undefined;
  /** The resolved profile in force. */
  readonly profile: Profile;

  constructor(options: SimulationOptions = {}) {
    const rebuilt = (options as { [REBUILT]?: { engine: ControlPlaneEngine; profile: Profile } })[
      REBUILT
    ];
    if (rebuilt !== undefined) {
      this.profile = rebuilt.profile;
      this.#engine = rebuilt.engine;
    } else {
      const profile = resolveProfile(withRateLimits(options.profile ?? {}, options.rateLimits));
      if (!profile.ok) throw new RangeError(profile.error);
      this.profile = profile.value;
      this.#engine = new Engine(createControlPlane(profile.value), {
        seed: options.seed ?? 1,
        start: parseInstant(options.start ?? DEFAULT_START),
        config: profile.value,
        ...engineTuning(options),
      });
    }
    for (const key of options.apiKeys ?? []) this.addApiKey(key);
    this.#target = targetOf(
      this.#engine,
      this.profile,
      this.#apiKeys,
      () => this.#postgresFront,
      limiterOf(this.#engine, this.profile),
    );
  }

  /** Rebuilds a simulation from its log (header first). Its state deep-equals the original's. */
  static replay(
    log: Iterable<LoggedEvent>,
    options: Pick<SimulationOptions, 'snapshotEvery' | 'stepLimit' | 'trackedEvents' | 'log'> = {},
  ): Simulation {
    const iterator = log[Symbol.iterator]();
    const first = iterator.next();
    const header = (first.done === true ? undefined : first.value) as
      { type?: unknown; config?: unknown } | undefined;
    if (header?.type !== 'SimulationStarted') {
      throw new LogFormatError('the log must start with SimulationStarted', 1);
    }
    const profile = resolveProfile(header.config);
    if (!profile.ok)
      throw new LogFormatError(`the header's profile is invalid: ${profile.error}`, 1);
    const engine = Engine.replay(
      createControlPlane(profile.value),
      knownEvents(header as LoggedEvent, iterator),
      engineTuning(options),
    );
    // A log whose settings changed (a fork's) continues under the profile it changed to.
    const inForce = engine.live.profile ?? profile.value;
    return new Simulation({ [REBUILT]: { engine, profile: inForce } } as SimulationOptions);
  }

  /**
   * Rebuilds a simulation from a log: events (as `replay` takes them) or JSON Lines text, where a
   * torn last line is refused too (`LogFormatError`). Reads well before a fork:
   * `Simulation.fromLog(log).fork(at, change)`.
   */
  static fromLog(
    log: Iterable<LoggedEvent> | string,
    options: Pick<SimulationOptions, 'snapshotEvery' | 'stepLimit' | 'trackedEvents'> = {},
  ): Simulation {
    if (typeof log !== 'string') return Simulation.replay(log, options);
    const { simulation, tornLastLine } = Simulation.fromJSONL(log, options);
    if (tornLastLine !== undefined)
      throw new LogFormatError(tornLastLine.reason, tornLastLine.line);
    return simulation;
  }

  /**
   * A new simulation that forks this one at `at`: its log up to `at` is this one's, byte for byte,
   * and from `at` it runs with `change` applied (profile values, computes' settings, workloads'
   * rates; see `SettingsChange`), as far as this one has run (or `options.until`). The same
   * sessions arrive after `at` as here, except where the change itself alters them. A change that
   * changes nothing gives this run's log. Requests and connections made by hand after `at` are not
   * repeated in a fork with a change (make them on the fork). Throws a `RangeError` for an instant
   * outside the run or a change that cannot apply at `at` (an unknown compute, a value out of
   * range), and a `LogUnavailableError` when this simulation keeps no log in memory (fork the
   * file it streamed instead: `Simulation.fromLog(LogFile.open(path).events())`); this simulation
   * does not change.
   */
  fork(at: Instant, change: SettingsChange = {}, options: ForkOptions = {}): Simulation {
    const forked = forkRun(forkSourceOf(this), at, change, options);
    return new Simulation({
      [REBUILT]: { engine: forked.engine, profile: forked.profile },
    } as SimulationOptions);
  }

  /**
   * Rebuilds a simulation from a JSON Lines log. A torn last line is ignored and reported in
   * `tornLastLine`; any other defect throws `LogFormatError` naming the line.
   */
  static fromJSONL(
    text: string,
    options: Pick<SimulationOptions, 'snapshotEvery' | 'stepLimit' | 'trackedEvents'> = {},
  ): {
    readonly simulation: Simulation;
    readonly tornLastLine?: { readonly line: number; readonly reason: string };
  } {
    const parsed = parseJsonLines(text);
    const simulation = Simulation.replay(parsed.events, options);
    return parsed.tornLastLine === undefined
      ? { simulation }
      : { simulation, tornLastLine: parsed.tornLastLine };
  }

  /**
   * The connection limits of a compute sized `[minCu, maxCu]` under this simulation's profile:
   * `max_connections`, the direct client connections admitted, and the pooler's backend pool.
   */
  connectionLimits(minCu: number, maxCu: number = minCu): ConnectionLimits {
    return connectionLimits(minCu, maxCu, this.profile.connections);
  }

  /** Virtual time, epoch milliseconds. */
  now(): number {
    return this.#engine.now;
  }

  /** The seed of this run. */
  get seed(): number {
    return this.#engine.seed;
  }

  /** Immutable snapshot of the current state. */
  get state(): SimState {
    return this.#engine.state;
  }

  /** The append-only event log, header first. */
  get log(): EventLog<SimEvent> {
    return this.#engine.log;
  }

  /** Every event as it is appended (synchronous, in order). */
  get events$(): Observable<SimEvent> {
    return this.#engine.events$;
  }

  /** The state after each public call; a new subscriber gets the current state first. */
  get state$(): Observable<SimState> {
    return this.#engine.state$;
  }

  /** Pending timers: how many, how many are foreground work, and when the next is due. */
  get pending(): {
    readonly timers: number;
    readonly foreground: number;
    readonly nextDue: number;
  } {
    return this.#engine.pending;
  }

  /** Moves virtual time forward by `duration` (ms or `'5m'`), running all work due in between. */
  advance(duration: Duration, options?: RunOptions): this {
    this.#engine.advanceTo(this.#engine.now + parseDuration(duration), options);
    return this;
  }

  /** Moves virtual time forward to `instant`, running all work due up to it. */
  advanceTo(instant: Instant, options?: RunOptions): this {
    this.#engine.advanceTo(parseInstant(instant), options);
    return this;
  }

  /**
   * One slice of a long advance: fires at most `maxTimers` of the timers due up to `instant`, and
   * moves the clock to `instant` once none is left. Returns whether `instant` was reached. Calling it
   * until it returns true gives the same log as one `advanceTo`, while a server stays free to answer
   * other requests between slices.
   */
  advanceToward(instant: Instant, maxTimers: number): boolean {
    return this.#engine.advanceToward(parseInstant(instant), maxTimers);
  }

  /**
   * One slice of `runUntilIdle`: fires at most `maxTimers` timers. Returns `idle` once only
   * background work is pending, `deadline` when foreground work is still pending but the next timer
   * is due after `deadline`, and `more` when the slice ran out first.
   */
  runTowardIdle(deadline: Instant, maxTimers: number): 'idle' | 'deadline' | 'more' {
    return this.#engine.runTowardIdle(parseInstant(deadline), maxTimers);
  }

  /**
   * Runs until an instant (like `advanceTo`) or until `predicate(state)` holds. With a predicate it
   * throws when the condition is false and nothing is pending, or past the step guard.
   */
  runUntil(target: Instant | ((state: SimState) => boolean), options?: RunOptions): this {
    if (typeof target === 'function') this.#engine.runUntilState(target, options);
    else this.#engine.advanceTo(parseInstant(target), options);
    return this;
  }

  /**
   * Runs until no foreground work is pending: operations settled, idle computes suspended. Periodic
   * background work does not count, but what it starts does (a check that wakes a compute). Work
   * that never settles (checks on many branches waking computes more often than they suspend, an
   * operation that keeps failing) throws `StepLimitError` once `within` (default 30 days) of
   * virtual time has passed; use `advance` to run a fixed span instead.
   */
  runUntilIdle(options?: RunOptions): this {
    this.#engine.runUntilIdle(options);
    return this;
  }

  /**
   * One REST request, path relative to `/api/v2` (a leading `/api/v2` is accepted too). Never throws:
   * errors are responses with a `{ code, message, request_id? }` body. The body is the API's JSON,
   * typed `any` by default like `fetch`'s `json()`; pass `B` to type it.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request<B = any>(
    method: string,
    path: string,
    body?: unknown,
    options?: RequestOptions,
  ): ApiResponse<B> {
    // Without added routes every answer comes in this turn.
    return answerRequest(this.#target, { ...options, method, path, body }) as ApiResponse<B>;
  }

  /**
   * One request through the API's pipeline with an adapter's additions (a server's control routes
   * and rate limits, a test's injected faults): what `computesim serve` and the testing toolkit
   * answer through, so that every transport gives the answers `request` gives. An added route's
   * handler may take time; the REST routes answer in this turn.
   */
  answer<A extends ApiResponse, C>(
    request: ApiRequest,
    hooks: PipelineHooks<A, C>,
  ): ApiResponse | A | Promise<ApiResponse | A> {
    return answerRequest(this.#target, request, hooks);
  }

  /** The keys given to `addApiKey` (or the `apiKeys` option), by key. */
  get apiKeys(): ReadonlyMap<string, ApiKey> {
    return this.#apiKeys;
  }

  /**
   * A client connects to a compute (directly, or through the pooler with `pooled: true`). The handle
   * is `connecting` while an idle compute wakes, then `open`; a refusal is a state (`refused`, with a
   * SQLSTATE in `error`), never an exception. Connecting resets the compute's scale-to-zero timer,
   * but an idle connection does not keep the compute up: it scales to zero after its timeout with no
   * statement running and no transaction open (`connection.query`, `begin`/`commit`), closing idle
   * connections with 57P01.
   */
  connect(endpointId: string, options: { readonly pooled?: boolean } = {}): Connection {
    const pooled = options.pooled === true;
    const result = this.#engine.execute({
      type: 'OpenConnection',
      endpointId,
      pooled,
      tracked: true,
    });
    const first = result.ok ? result.value[0] : undefined;
    if (first === undefined || !('connectionId' in first))
      throw new Error('OpenConnection produced no connection event');
    const engine = this.#engine;
    return new Connection(first.connectionId, endpointId, pooled, {
      get state() {
        return engine.state;
      },
      close: (connectionId) => {
        engine.execute({ type: 'CloseConnection', connectionId });
      },
      query: (connectionId, durationMs) => {
        engine.execute({ type: 'RunQuery', connectionId, durationMs });
      },
      transaction: (connectionId, open) => {
        engine.execute({ type: 'SetTransaction', connectionId, open });
      },
    });
  }

  /**
   * Drops the open connections of a compute from outside (SQLSTATE 57P01), as the network or an
   * operator might: a fault for testing clients. The compute stays up; returns how many were
   * dropped. Throws a `RangeError` for an unknown compute.
   */
  dropConnections(endpointId: string): number {
    const result = this.#engine.execute({ type: 'DropConnections', endpointId });
    if (!result.ok) throw new RangeError(result.error.message);
    const dropped = result.value[0];
    return dropped?.type === 'ConnectionsDropped' ? dropped.connectionIds.length : 0;
  }

  /**
   * Attaches a workload from now on and returns its id (`w1`, `w2`, … in order): Poisson sessions
   * following the clock, cron jobs, long-held workers, a burst, or a recorded trace (see
   * `WorkloadInput`). Its sessions connect like clients, put CPU and memory demand on the compute
   * while open (autoscaling follows it) and close after their hold time. Sessions are drawn from the
   * seed and the workload's id alone, so the same seed gives the same sessions under any profile.
   * Throws a `RangeError` naming the problem for a wrong spec or a missing compute; nothing changes.
   */
  addWorkload(workload: WorkloadInput): string {
    const result = this.#engine.execute({ type: 'AttachWorkload', workload });
    if (!result.ok) throw new RangeError(result.error.message);
    const attached = result.value[0];
    if (attached?.type !== 'WorkloadAttached') throw new Error('AttachWorkload attached nothing');
    return attached.workloadId;
  }

  /**
   * Requires API keys from now on (the first key switches authentication on). A project-scoped key
   * reaches only its project. Returns the key string (generated from the seed when not given). Keys
   * belong to this simulation object, not to its log: a replay starts without them.
   */
  addApiKey(key: {
    readonly kind: ApiKey['kind'];
    readonly key?: string;
    readonly projectId?: string;
  }): string {
    if (!(API_KEY_KINDS as readonly string[]).includes(key.kind)) {
      throw new RangeError(
        `API key kind must be one of ${API_KEY_KINDS.join(', ')}, got ${JSON.stringify(key.kind)}`,
      );
    }
    if (
      key.kind === 'project' &&
      (key.projectId === undefined || own(this.state.projects, key.projectId) === undefined)
    ) {
      throw new RangeError(
        `a project-scoped API key needs an existing projectId, got ${JSON.stringify(key.projectId)}`,
      );
    }
    const value = key.key ?? `csim_${key.kind}_${this.#apiKeys.size + 1}_${this.seed.toString(36)}`;
    const problem = apiKeyProblem(value);
    if (problem !== undefined) throw new RangeError(problem);
    this.#apiKeys.set(
      value,
      key.kind === 'project'
        ? { key: value, kind: 'project', projectId: key.projectId as string }
        : { key: value, kind: key.kind },
    );
    return value;
  }

  /**
   * Where a Postgres front serves this simulation's computes (`computesim serve --pg-port`): from
   * now on the connection URIs the API answers point at it, naming the compute in
   * `options=endpoint%3D<id>`. `undefined` goes back to the computes' own hosts. Not logged: it is
   * where the simulation is served, not part of what it simulates.
   */
  servePostgresAt(address: PostgresAddress | undefined): void {
    this.#postgresFront = address;
  }

  /** Whether `key` is a live API key of this simulation (given, or created through the API). */
  knowsApiKey(key: string): boolean {
    return keyRingOf(this.#apiKeys, this.#target.state).find(key) !== undefined;
  }

  /** State as it stood at a past instant. */
  stateAt(instant: Instant): SimState {
    return this.#engine.stateAt(parseInstant(instant));
  }

  /** The log as JSON Lines (one event a line). */
  toJSONL(): string {
    return this.#engine.log.toJSONL();
  }
}

type ControlPlaneEngine = Engine<SimState, Command, DomainEvent, TimerCommand, Rejection>;

const KNOWN_TYPES: ReadonlySet<string> = new Set<string>([...DOMAIN_EVENT_TYPES, 'ClockAdvanced']);

/** Key of the private construction path used by `replay`. */
const REBUILT = Symbol('rebuilt');

/** What a fork reads of a simulation (past states by epoch ms). */
function forkSourceOf(sim: Simulation): ForkSource {
  return { log: sim.log, now: () => sim.now(), stateAt: (t) => sim.stateAt(t) };
}

/** The header, then every further event, refusing unknown types as they come (one pass, no copy). */
function* knownEvents(header: LoggedEvent, rest: Iterator<LoggedEvent>): Generator<LoggedEvent> {
  yield header;
  let line = 1;
  for (let next = rest.next(); next.done !== true; next = rest.next()) {
    line++;
    const type = (next.value as { type?: unknown }).type;
    if (typeof type !== 'string' || !KNOWN_TYPES.has(type)) {
      throw new LogFormatError(`unknown event type ${JSON.stringify(type)}`, line);
    }
    yield next.value;
  }
}

function engineTuning(
  options: Pick<SimulationOptions, 'snapshotEvery' | 'stepLimit' | 'trackedEvents' | 'log'>,
) {
  return {
    ...(options.log === undefined ? {} : { log: options.log }),
    ...(options.snapshotEvery === undefined ? {} : { snapshotEvery: options.snapshotEvery }),
    ...(options.stepLimit === undefined ? {} : { stepLimit: options.stepLimit }),
    ...(options.trackedEvents === undefined ? {} : { trackedEvents: options.trackedEvents }),
  };
}

/** The profile choice with rate limits switched on or off by the `rateLimits` option, if given. */
function withRateLimits(choice: ProfileChoice, rateLimits: boolean | undefined): ProfileChoice {
  if (rateLimits === undefined) return choice;
  const overrides = asOverrides(choice);
  return { ...overrides, rateLimits: { ...overrides.rateLimits, enabled: rateLimits } };
}

/** The server's rate limiter, on the virtual clock, when the profile switches limits on. */
function limiterOf(engine: ControlPlaneEngine, profile: Profile): RateLimiter | undefined {
  const { enabled, perKeyPerMinute, perRoutePerSecond } = profile.rateLimits;
  if (!enabled) return undefined;
  return new RateLimiter({ perKeyPerMinute, perRoutePerSecond }, () => engine.now);
}

function targetOf(
  engine: ControlPlaneEngine,
  profile: Profile,
  apiKeys: ReadonlyMap<string, ApiKey>,
  postgresFront: () => PostgresAddress | undefined,
  limiter: RateLimiter | undefined,
): RequestTarget {
  let issuedIds = 0;
  return {
    get postgresFront() {
      return postgresFront();
    },
    ...(limiter === undefined
      ? {}
      : { admit: (caller: string, route: string) => limiter.admit(caller, route) }),
    // Handlers copy what they need into JSON at once, so they may read the live state (no publish).
    get state() {
      return engine.live;
    },
    profile,
    apiKeys,
    execute: (command) => engine.execute(command),
    get now() {
      return engine.now;
    },
    get start() {
      return engine.start;
    },
    stateAt: (t) => engine.stateAt(t),
    keepsHistory: engine.log.keepsEvents,
    answerFor: knownFailure,
    // Keyed by the log position and a count, so the same requests get the same ids on every run.
    nextRequestId: () => requestId(engine.seed, 'request-ids', engine.log.length, issuedIds++),
  };
}

/**
 * The answer for an engine error that is not a bug: the log can take no more events (closed, or its
 * sink failed: the call that failed has its events in the state, not in the file) is a 503; a timer
 * loop past its step limit a 409. Each carries the error's first line.
 */
function knownFailure(error: unknown): ApiResponse | undefined {
  if (!(error instanceof LogUnavailableError || error instanceof StepLimitError)) return undefined;
  const message = error.message.split('\n')[0] ?? '';
  if (error instanceof StepLimitError) return errorResponse(reject('conflict', message));
  return { status: 503, body: { code: 'service_unavailable', message } };
}
