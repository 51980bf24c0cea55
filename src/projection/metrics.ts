/**
 * Capacity metrics as a pure projection of an event log: per compute and fleet-wide CU-hours (size
 * integrated over active time), active hours, starts and suspends, autoscaling moves, the cold starts
 * sessions felt and the wait they added, refused and dropped connections, failed statements,
 * operations by action and status, requests refused with 423, and an estimated cost. A streaming
 * projection (`MetricsProjection`): fed a whole log by `metricsOf`, or a running simulation's events.
 */
import { historySoFar } from '../core/historySoFar.js';
import { coldCachePenaltyMs } from '../domain/coldCache.js';
import type { OperationAction } from '../domain/operationAction.js';
import { DEFAULT_PROFILE, type ColdCacheProfile } from '../domain/profile.js';
import type { Observable } from 'rxjs';
import type { SimEvent } from '../model/events.js';
import { ComputeActivity, type ComputeActivityRecord } from './computeActivity.js';
import type { OperationOutcome } from './operationOutcomes.js';
import { percentiles, type Percentiles } from './percentiles.js';
import { HOUR_MS } from '../core/duration.js';

/** Settings of a metrics projection. */
export interface MetricsOptions {
  /** Price of one CU-hour, for the cost estimate (default 0.16). */
  readonly pricePerCuHour?: number;
  /** End of the measured span, epoch ms (default: the last instant of the log). */
  readonly until?: number;
  /**
   * Start of the measured span, epoch ms (default: the log's first instant): what happened up to it
   * only sets the scene (which computes are active, at what size), and only what follows counts.
   * Two futures of one run (a fork) compare from their fork point this way. (A `MetricsProjection`
   * takes it when it is created, since it counts as events come.)
   */
  readonly from?: number;
  /**
   * Called with every sample of the distributions (`coldStartWaitMs`, `coldCacheDelayMs`) that
   * counts, for callers that merge distributions across runs (a fleet split over workers).
   */
  readonly onSample?: (figure: SampledFigure, ms: number) => void;
}

/** The distributions of `FleetMetrics` whose samples `MetricsOptions.onSample` sees. */
export type SampledFigure = 'coldStartWaitMs' | 'coldCacheDelayMs';

/** Figures of one compute. */
export interface ComputeMetrics {
  readonly endpointId: string;
  readonly projectId: string;
  readonly cuHours: number;
  readonly activeHours: number;
  readonly starts: number;
  readonly suspends: number;
  readonly resizes: number;
  /**
   * Sessions that connected (opened, at once or after a wait): workload sessions, and clients'
   * connections (`sim.connect`, Postgres clients of `serve`).
   */
  readonly sessions: number;
  /** Sessions that had to wait for the compute to start. */
  readonly coldStarts: number;
  /** API requests naming this compute that were refused with 423 (locked). */
  readonly lockedRequests: number;
}

/** Fleet-wide figures (sums over computes, plus distributions). */
export interface FleetMetrics {
  readonly from: number;
  readonly until: number;
  readonly computes: number;
  readonly cuHours: number;
  readonly activeHours: number;
  readonly costEstimate: number;
  readonly pricePerCuHour: number;
  readonly starts: number;
  readonly suspends: number;
  readonly resizes: number;
  readonly sessions: number;
  readonly coldStarts: number;
  /** The wait cold starts added to sessions, ms. */
  readonly coldStartWaitMs: Percentiles;
  /** The extra time sessions that opened on a still-cold cache took, ms (count: such sessions). */
  readonly coldCacheDelayMs: Percentiles;
  /** Connections refused, by SQLSTATE (sessions and plain connections). */
  readonly refused: Readonly<Record<string, number>>;
  /** Connections dropped, by SQLSTATE. */
  readonly dropped: Readonly<Record<string, number>>;
  /** Statements that failed, by SQLSTATE (53100: temporary disk full). */
  readonly failedStatements: Readonly<Record<string, number>>;
  /** Operations by action, then by final status (`unfinished` if still going at the end). */
  readonly operations: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Failed attempts that were retried. */
  readonly operationRetries: number;
  /** API requests refused with 423 because an unfinished operation locked what they named. */
  readonly lockedRequests: number;
}

/** Both views of one projection. */
export interface Metrics {
  readonly fleet: FleetMetrics;
  readonly computes: readonly ComputeMetrics[];
}

/** Default price of a CU-hour for cost estimates (configurable per projection). */
export const DEFAULT_PRICE_PER_CU_HOUR = 0.16;

/** What metrics count per compute beyond its activity (see computeActivity.ts). */
interface SessionTally {
  sessions: number;
  coldStarts: number;
  lockedRequests: number;
}

/** What a compute's activity had added up to when a measured span began. */
type ActivityCounts = Pick<
  ComputeActivityRecord,
  'cuMs' | 'activeMs' | 'starts' | 'suspends' | 'resizes'
>;

const NO_ACTIVITY: ActivityCounts = { cuMs: 0, activeMs: 0, starts: 0, suspends: 0, resizes: 0 };
const NO_TALLY: SessionTally = { sessions: 0, coldStarts: 0, lockedRequests: 0 };

/** Operations of one action that reached one outcome, and the creation rank of the first of them. */
interface OutcomeTally {
  count: number;
  firstRank: number;
}

/** Any event of a log, as a log file yields it (the projection reads the kinds it knows). */
export interface AnyLoggedEvent {
  readonly type: string;
  readonly at: number;
  readonly seq: number;
}

/** What a projection needs to follow a simulation as it runs (a `Simulation` has all of it). */
export interface FollowedRun {
  readonly log: { readonly header?: SimEvent | undefined; readonly length: number };
  readonly events$: Observable<SimEvent>;
}

/**
 * The metrics as a streaming projection: fed the events of a log in order (header first), it can
 * answer `metrics()` at any point, and keeps only what the figures need (no event, and no finished
 * operation). `metricsOf` is one fed a whole log; `follow` feeds one a running simulation's events,
 * so a run that keeps no log still gets its figures, equal to `metricsOf` of the log it would
 * have kept.
 */
export class MetricsProjection {
  readonly #activity = new ComputeActivity();
  readonly #computes = new Map<string, SessionTally>();
  readonly #waiting = new Map<string, { at: number; endpointId: string }>();
  /** Operations still unfinished: their action and creation rank. */
  readonly #unfinished = new Map<string, { action: OperationAction; rank: number }>();
  /** Operations by action (in order of the first created), then by outcome. */
  readonly #outcomes = new Map<OperationAction, Map<OperationOutcome, OutcomeTally>>();
  #created = 0;
  readonly #refused: Record<string, number> = {};
  readonly #dropped: Record<string, number> = {};
  readonly #failedStatements: Record<string, number> = {};
  readonly #waits: number[] = [];
  readonly #cacheDelays: number[] = [];
  #coldCache = DEFAULT_PROFILE.coldCache;
  #retries = 0;
  #locked = 0;
  #from: number | undefined;
  #last = 0;
  #unsubscribe: (() => void) | undefined;
  /** Start of the measured span (`undefined`: the log's first instant). */
  readonly #measureFrom: number | undefined;
  #measuring: boolean;
  /** Each compute's activity when the measured span began (subtracted from its figures). */
  readonly #before = new Map<string, ActivityCounts>();

  readonly #onSample: MetricsOptions['onSample'];

  /**
   * A projection counting from `from` on (default: everything), telling `onSample` each sample of
   * its distributions that counts; events are fed with `apply`.
   */
  constructor(options: Pick<MetricsOptions, 'from' | 'onSample'> = {}) {
    this.#measureFrom = options.from;
    this.#onSample = options.onSample;
    this.#measuring = options.from === undefined;
  }

  /**
   * A projection that follows `run` from now on: its header (and, when its log is in memory, what
   * it holds already), then every event as it is appended. Throws a `LogUnavailableError` for a run
   * that keeps no log and has gone past its header: follow it before its first step. `stop()` ends
   * it.
   */
  static follow(run: FollowedRun): MetricsProjection {
    const projection = new MetricsProjection();
    for (const event of historySoFar(run.log, 'MetricsProjection.follow')) projection.apply(event);
    const subscription = run.events$.subscribe((event) => projection.apply(event));
    projection.#unsubscribe = () => subscription.unsubscribe();
    return projection;
  }

  /** Stops following the run (the figures so far stay readable). */
  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  /** Takes the next event of the log. */
  apply(event: SimEvent): void {
    this.#from ??= event.at;
    if (!this.#measuring && event.at > (this.#measureFrom as number))
      this.#beginMeasuring(this.#measureFrom as number);
    if (event.type === 'SimulationStarted') this.#coldCache = coldCacheOf(event.config);
    if (event.type === 'SettingsChanged' && event.profile !== undefined)
      this.#coldCache = coldCacheOf(event.profile);
    if (event.at > this.#last) this.#last = event.at;
    this.#activity.apply(event);
    switch (event.type) {
      case 'EndpointCreated':
        this.#computes.set(event.endpointId, { sessions: 0, coldStarts: 0, lockedRequests: 0 });
        break;
      case 'ConnectionRequested':
        this.#waiting.set(event.connectionId, { at: event.at, endpointId: event.endpointId });
        break;
      case 'ConnectionOpened':
        this.#opened(event);
        break;
      case 'ConnectionRefused':
        this.#waiting.delete(event.connectionId);
        count(this.#refused, event.sqlstate);
        break;
      case 'ConnectionsDropped':
        for (const id of event.connectionIds) this.#waiting.delete(id);
        count(this.#dropped, event.sqlstate, event.connectionIds.length);
        break;
      case 'StatementFailed':
        count(this.#failedStatements, event.sqlstate);
        break;
      case 'OperationCreated':
        this.#unfinished.set(event.operationId, { action: event.action, rank: this.#created++ });
        if (!this.#outcomes.has(event.action)) this.#outcomes.set(event.action, new Map());
        break;
      case 'OperationFinished':
        this.#ended(event.operationId, 'finished');
        break;
      case 'OperationErrored':
        this.#ended(event.operationId, 'error');
        break;
      case 'OperationCancelled':
        this.#ended(event.operationId, 'cancelled');
        break;
      case 'OperationFailed':
        this.#retries++;
        break;
      case 'RequestLocked': {
        this.#locked++;
        const tally =
          event.endpointId === undefined ? undefined : this.#computes.get(event.endpointId);
        if (tally !== undefined) tally.lockedRequests++;
        break;
      }
      default:
        break;
    }
  }

  /** The measured span begins: what was counted so far only set the scene. */
  #beginMeasuring(at: number): void {
    this.#measuring = true;
    this.#activity.accountTo(at);
    for (const compute of this.#activity.computes())
      this.#before.set(compute.endpointId, countsOf(compute));
    for (const tally of this.#computes.values()) Object.assign(tally, NO_TALLY);
    this.#unfinished.clear();
    this.#outcomes.clear();
    this.#waits.length = 0;
    this.#cacheDelays.length = 0;
    for (const table of [this.#refused, this.#dropped, this.#failedStatements])
      for (const key of Object.keys(table)) delete table[key];
    this.#retries = 0;
    this.#locked = 0;
  }

  #opened(event: Extract<SimEvent, { type: 'ConnectionOpened' }>): void {
    const waited = this.#waiting.get(event.connectionId);
    const tally = this.#computes.get(event.endpointId);
    if (waited !== undefined || event.holdMs !== undefined) {
      const delay = coldCachePenaltyMs(
        this.#activity.get(event.endpointId)?.startedAt,
        event.at,
        this.#coldCache,
      );
      if (delay > 0) {
        this.#cacheDelays.push(delay);
        if (this.#measuring) this.#onSample?.('coldCacheDelayMs', delay);
      }
    }
    if (waited !== undefined) {
      this.#waiting.delete(event.connectionId);
      this.#waits.push(event.at - waited.at);
      if (this.#measuring) this.#onSample?.('coldStartWaitMs', event.at - waited.at);
      if (tally !== undefined) {
        tally.sessions++;
        tally.coldStarts++;
      }
    } else if (tally !== undefined) tally.sessions++;
  }

  /** An operation reached a terminal outcome: counted, and forgotten. */
  #ended(operationId: string, outcome: OperationOutcome): void {
    const unfinished = this.#unfinished.get(operationId);
    if (unfinished === undefined) return;
    this.#unfinished.delete(operationId);
    tallyOutcome(this.#outcomes, unfinished.action, outcome, unfinished.rank);
  }

  /** The figures so far (the projection goes on taking events afterwards). */
  metrics(options: Omit<MetricsOptions, 'from' | 'onSample'> = {}): Metrics {
    const until = options.until ?? this.#last;
    const start = this.#measureFrom ?? this.#from ?? until;
    const price = options.pricePerCuHour ?? DEFAULT_PRICE_PER_CU_HOUR;
    /** The measured span begins after the last event: nothing counted yet but activity. */
    const notYet = !this.#measuring;
    const spanStart = Math.min(this.#measureFrom ?? until, until);
    const perCompute: ComputeMetrics[] = [];
    for (const compute of this.#activity.computes()) {
      const tally = notYet ? NO_TALLY : (this.#computes.get(compute.endpointId) as SessionTally);
      const usage = this.#activity.usageAt(compute, until);
      const earlier = notYet
        ? { ...countsOf(compute), ...this.#activity.usageAt(compute, spanStart) }
        : (this.#before.get(compute.endpointId) ?? NO_ACTIVITY);
      perCompute.push({
        endpointId: compute.endpointId,
        projectId: compute.projectId,
        cuHours: (usage.cuMs - earlier.cuMs) / HOUR_MS,
        activeHours: (usage.activeMs - earlier.activeMs) / HOUR_MS,
        starts: compute.starts - earlier.starts,
        suspends: compute.suspends - earlier.suspends,
        resizes: compute.resizes - earlier.resizes,
        sessions: tally.sessions,
        coldStarts: tally.coldStarts,
        lockedRequests: tally.lockedRequests,
      });
    }
    const sum = (pick: (c: ComputeMetrics) => number) =>
      perCompute.reduce((s, c) => s + pick(c), 0);
    const cuHours = sum((c) => c.cuHours);
    return {
      fleet: {
        from: start,
        until,
        computes: perCompute.length,
        cuHours,
        activeHours: sum((c) => c.activeHours),
        costEstimate: cuHours * price,
        pricePerCuHour: price,
        starts: sum((c) => c.starts),
        suspends: sum((c) => c.suspends),
        resizes: sum((c) => c.resizes),
        sessions: sum((c) => c.sessions),
        coldStarts: sum((c) => c.coldStarts),
        coldStartWaitMs: percentiles(notYet ? [] : this.#waits),
        coldCacheDelayMs: percentiles(notYet ? [] : this.#cacheDelays),
        refused: notYet ? {} : { ...this.#refused },
        dropped: notYet ? {} : { ...this.#dropped },
        failedStatements: notYet ? {} : { ...this.#failedStatements },
        operations: notYet ? {} : this.#operationsTable(),
        operationRetries: notYet ? 0 : this.#retries,
        lockedRequests: notYet ? 0 : this.#locked,
      },
      computes: perCompute,
    };
  }

  /**
   * Operations by action, then by outcome: actions in the order their first operation was
   * created, outcomes in the order of the first operation (by creation) that reached each.
   */
  #operationsTable(): Record<string, Record<string, number>> {
    const outcomes = new Map<OperationAction, Map<OperationOutcome, OutcomeTally>>();
    for (const [action, byOutcome] of this.#outcomes)
      outcomes.set(action, new Map([...byOutcome].map(([o, t]) => [o, { ...t }])));
    for (const { action, rank } of this.#unfinished.values())
      tallyOutcome(outcomes, action, 'unfinished', rank);
    const table: Record<string, Record<string, number>> = {};
    for (const [action, byOutcome] of outcomes) {
      if (byOutcome.size === 0) continue;
      const row: Record<string, number> = {};
      for (const [outcome, tally] of [...byOutcome].sort((a, b) => a[1].firstRank - b[1].firstRank))
        row[outcome] = tally.count;
      table[action] = row;
    }
    return table;
  }
}

/**
 * Computes the metrics of a log (its header first), reading it once as a stream: `sim.log`, or the
 * events of a log file (`LogFile.open(path).events()`) without loading it.
 */
export function metricsOf(log: Iterable<AnyLoggedEvent>, options: MetricsOptions = {}): Metrics {
  const projection = new MetricsProjection({
    ...(options.from === undefined ? {} : { from: options.from }),
    ...(options.onSample === undefined ? {} : { onSample: options.onSample }),
  });
  for (const event of log) projection.apply(event as SimEvent);
  return projection.metrics(options);
}

function countsOf(compute: ComputeActivityRecord): ActivityCounts {
  const { cuMs, activeMs, starts, suspends, resizes } = compute;
  return { cuMs, activeMs, starts, suspends, resizes };
}

function count(table: Record<string, number>, key: string, n = 1): void {
  table[key] = (table[key] ?? 0) + n;
}

function tallyOutcome(
  outcomes: Map<OperationAction, Map<OperationOutcome, OutcomeTally>>,
  action: OperationAction,
  outcome: OperationOutcome,
  rank: number,
): void {
  let byOutcome = outcomes.get(action);
  if (byOutcome === undefined) {
    byOutcome = new Map();
    outcomes.set(action, byOutcome);
  }
  const tally = byOutcome.get(outcome);
  if (tally === undefined) byOutcome.set(outcome, { count: 1, firstRank: rank });
  else {
    tally.count++;
    if (rank < tally.firstRank) tally.firstRank = rank;
  }
}

/** The cold-cache settings a log ran with (its header holds the resolved profile). */
function coldCacheOf(config: unknown): ColdCacheProfile {
  const cache = (config as { coldCache?: ColdCacheProfile } | null)?.coldCache;
  return cache !== undefined && Number.isFinite(cache.warmupMs) && Number.isFinite(cache.penaltyMs)
    ? cache
    : DEFAULT_PROFILE.coldCache;
}
