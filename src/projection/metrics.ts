/**
 * Capacity metrics as a pure projection of an event log: per compute and fleet-wide CU-hours (size
 * integrated over active time), active hours, starts and suspends, autoscaling moves, the cold starts
 * sessions felt and the wait they added, refused and dropped connections, failed statements,
 * operations by action and status, requests refused with 423, and an estimated cost.
 */
import { coldCachePenaltyMs } from '../domain/coldCache.js';
import type { OperationAction } from '../domain/operationAction.js';
import { DEFAULT_PROFILE, type ColdCacheProfile } from '../domain/profile.js';
import type { SimEvent } from '../model/events.js';
import { ComputeActivity } from './computeActivity.js';
import { OperationOutcomes } from './operationOutcomes.js';
import { percentiles, type Percentiles } from './percentiles.js';

/** Settings of a metrics projection. */
export interface MetricsOptions {
  /** Price of one CU-hour, for the cost estimate (default 0.16). */
  readonly pricePerCuHour?: number;
  /** End of the measured span, epoch ms (default: the last instant of the log). */
  readonly until?: number;
  /**
   * Called with every sample of the distributions (`coldStartWaitMs`, `coldCacheDelayMs`), for
   * callers that merge distributions across runs (a fleet split over workers).
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
  /** Workload sessions that connected (opened, at once or after a wait). */
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

const HOUR_MS = 3_600_000;

/** What metrics count per compute beyond its activity (see computeActivity.ts). */
interface SessionTally {
  sessions: number;
  coldStarts: number;
  lockedRequests: number;
}

/** Computes the metrics of a log (its header first). */
export function metricsOf(log: Iterable<SimEvent>, options: MetricsOptions = {}): Metrics {
  const activity = new ComputeActivity();
  const computes = new Map<string, SessionTally>();
  const waiting = new Map<string, { at: number; endpointId: string }>();
  const actions = new Map<string, OperationAction>();
  const outcomes = new OperationOutcomes();
  const refused: Record<string, number> = {};
  const dropped: Record<string, number> = {};
  const failedStatements: Record<string, number> = {};
  const waits: number[] = [];
  const cacheDelays: number[] = [];
  let coldCache = DEFAULT_PROFILE.coldCache;
  let retries = 0;
  let locked = 0;
  let from: number | undefined;
  let last = 0;
  const count = (table: Record<string, number>, key: string, n = 1) => {
    table[key] = (table[key] ?? 0) + n;
  };

  for (const event of log) {
    from ??= event.at;
    if (event.type === 'SimulationStarted') coldCache = coldCacheOf(event.config);
    last = Math.max(last, event.at);
    activity.apply(event);
    outcomes.apply(event);
    switch (event.type) {
      case 'EndpointCreated':
        computes.set(event.endpointId, { sessions: 0, coldStarts: 0, lockedRequests: 0 });
        break;
      case 'ConnectionRequested':
        if (event.holdMs !== undefined)
          waiting.set(event.connectionId, { at: event.at, endpointId: event.endpointId });
        break;
      case 'ConnectionOpened': {
        const waited = waiting.get(event.connectionId);
        const tally = computes.get(event.endpointId);
        if (waited !== undefined || event.holdMs !== undefined) {
          const delay = coldCachePenaltyMs(
            activity.get(event.endpointId)?.startedAt,
            event.at,
            coldCache,
          );
          if (delay > 0) {
            cacheDelays.push(delay);
            options.onSample?.('coldCacheDelayMs', delay);
          }
        }
        if (waited !== undefined) {
          waiting.delete(event.connectionId);
          waits.push(event.at - waited.at);
          options.onSample?.('coldStartWaitMs', event.at - waited.at);
          if (tally !== undefined) {
            tally.sessions++;
            tally.coldStarts++;
          }
        } else if (event.holdMs !== undefined && tally !== undefined) tally.sessions++;
        break;
      }
      case 'ConnectionRefused':
        waiting.delete(event.connectionId);
        count(refused, event.sqlstate);
        break;
      case 'ConnectionsDropped':
        for (const id of event.connectionIds) waiting.delete(id);
        count(dropped, event.sqlstate, event.connectionIds.length);
        break;
      case 'StatementFailed':
        count(failedStatements, event.sqlstate);
        break;
      case 'OperationCreated':
        actions.set(event.operationId, event.action);
        break;
      case 'OperationFailed':
        retries++;
        break;
      case 'RequestLocked': {
        locked++;
        const tally = event.endpointId === undefined ? undefined : computes.get(event.endpointId);
        if (tally !== undefined) tally.lockedRequests++;
        break;
      }
      default:
        break;
    }
  }

  const until = options.until ?? last;
  const start = from ?? until;
  const price = options.pricePerCuHour ?? DEFAULT_PRICE_PER_CU_HOUR;
  const perCompute: ComputeMetrics[] = [];
  activity.finish(until);
  for (const compute of activity.computes()) {
    const tally = computes.get(compute.endpointId) as SessionTally;
    perCompute.push({
      endpointId: compute.endpointId,
      projectId: compute.projectId,
      cuHours: compute.cuMs / HOUR_MS,
      activeHours: compute.activeMs / HOUR_MS,
      starts: compute.starts,
      suspends: compute.suspends,
      resizes: compute.resizes,
      sessions: tally.sessions,
      coldStarts: tally.coldStarts,
      lockedRequests: tally.lockedRequests,
    });
  }
  const operations: Record<string, Record<string, number>> = {};
  for (const [id, status] of outcomes.entries())
    count((operations[actions.get(id) as string] ??= {}), status);
  const sum = (pick: (c: ComputeMetrics) => number) => perCompute.reduce((s, c) => s + pick(c), 0);
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
      coldStartWaitMs: percentiles(waits),
      coldCacheDelayMs: percentiles(cacheDelays),
      refused,
      dropped,
      failedStatements,
      operations,
      operationRetries: retries,
      lockedRequests: locked,
    },
    computes: perCompute,
  };
}

/** The cold-cache settings a log ran with (its header holds the resolved profile). */
function coldCacheOf(config: unknown): ColdCacheProfile {
  const cache = (config as { coldCache?: ColdCacheProfile } | null)?.coldCache;
  return cache !== undefined && Number.isFinite(cache.warmupMs) && Number.isFinite(cache.penaltyMs)
    ? cache
    : DEFAULT_PROFILE.coldCache;
}
