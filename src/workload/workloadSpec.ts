/**
 * What users attach to a simulation to generate traffic: Poisson sessions that follow the clock,
 * cron jobs, long-held worker connections, bursts, and recorded traces. Specs are checked and
 * resolved (durations to milliseconds, times to epoch ms) into plain JSON the event log can hold.
 */
import { tryParseDuration, type Duration } from '../core/duration.js';
import { tryParseInstant, type Instant } from '../core/instant.js';
import { err, ok, type Result } from '../core/result.js';
import { resolveRates, type DailyRates, type RatesInput } from './dailyRates.js';
import { resolveDistribution, type Distribution, type DistributionInput } from './distribution.js';

/** What one session does once connected. */
export interface SessionInput {
  /** How long the client holds the connection once it is open. */
  readonly duration: DistributionInput<Duration>;
  /** CPU demand while connected, in vCPUs (default 0.1). */
  readonly cpu?: DistributionInput<number>;
  /** Memory the session's queries hold, GB (default 0). */
  readonly memoryGb?: number;
  /** Data the session keeps touching, GB (default 0): autoscaling keeps it in the cache. */
  readonly workingSetGb?: number;
  /** Temporary disk its biggest statement needs, GB; above the compute's ~20 GB it fails (53100). */
  readonly tempDiskGb?: number;
  /** Through the connection pooler (default: a direct connection). */
  readonly pooled?: boolean;
}

/** Where and when a generator runs: the compute, and an optional window after it is attached. */
interface GeneratorBase {
  readonly endpointId: string;
  /** Start this long after being attached (default 0). */
  readonly after?: Duration;
  /** Stop generating this long after being attached (default: never). */
  readonly for?: Duration;
}

/** Sessions arriving as a Poisson process whose rate follows the hour of day and day of week. */
export interface PoissonInput extends GeneratorBase {
  readonly kind: 'poisson';
  /** Sessions per hour: one number, or per hour of day for weekdays and weekends. */
  readonly rates: RatesInput;
  /** Local time of the traffic as an offset from UTC, minutes (default 0). */
  readonly utcOffsetMinutes?: number;
  readonly session: SessionInput;
}

/** A job every `every`, each run opening `connections` sessions (default 1). */
export interface CronInput extends GeneratorBase {
  readonly kind: 'cron';
  readonly every: Duration;
  readonly connections?: number;
  readonly session: SessionInput;
}

/** Background workers: `connections` held all the time, re-established every `reconnectEvery`. */
export interface WorkerInput extends GeneratorBase {
  readonly kind: 'worker';
  readonly connections: number;
  /** Default 1h: a connection dropped by a restart is back within this. */
  readonly reconnectEvery?: Duration;
  /** CPU demand of each worker connection, vCPUs (default 0.1). */
  readonly cpu?: number;
}

/** `count` sessions spread over `within`, starting `after` the attachment. */
export interface BurstInput extends Omit<GeneratorBase, 'for'> {
  readonly kind: 'burst';
  readonly count: number;
  readonly within: Duration;
  readonly session: SessionInput;
}

/** One recorded session of a trace. */
export interface TraceRow {
  readonly at: Instant;
  readonly endpointId: string;
  readonly duration: Duration;
  /** vCPUs (default 0.1). */
  readonly cpu?: number;
}

/** A recorded trace replayed as is (see `parseTrace` for CSV and JSON Lines files). */
export interface TraceInput {
  readonly kind: 'trace';
  readonly rows: readonly TraceRow[];
}

/** Any workload a user can attach. */
export type WorkloadInput = PoissonInput | CronInput | WorkerInput | BurstInput | TraceInput;

/** A session's attributes, resolved. */
export interface SessionSpec {
  readonly duration: Distribution;
  readonly cpu: Distribution;
  readonly memoryGb: number;
  readonly workingSetGb: number;
  readonly tempDiskGb: number;
  readonly pooled: boolean;
}

/** A workload resolved against the time it is attached: all times epoch ms, all durations ms. */
export type WorkloadSpec =
  | {
      readonly kind: 'poisson';
      readonly endpointId: string;
      readonly startAt: number;
      readonly endAt: number | null;
      readonly rates: DailyRates;
      readonly utcOffsetMs: number;
      readonly session: SessionSpec;
    }
  | {
      readonly kind: 'cron';
      readonly endpointId: string;
      readonly startAt: number;
      readonly endAt: number | null;
      readonly everyMs: number;
      readonly connections: number;
      readonly session: SessionSpec;
    }
  | {
      readonly kind: 'burst';
      readonly endpointId: string;
      readonly startAt: number;
      readonly withinMs: number;
      readonly count: number;
      readonly session: SessionSpec;
    }
  | {
      readonly kind: 'trace';
      /** `[at, endpoint index, duration ms, milli-vCPU]`, in time order. */
      readonly rows: readonly (readonly [number, number, number, number])[];
      readonly endpointIds: readonly string[];
    };

/** The kinds of workload. */
export const WORKLOAD_KINDS = ['poisson', 'cron', 'worker', 'burst', 'trace'] as const;

/** Default CPU demand of a session, vCPUs. */
export const DEFAULT_SESSION_CPU = 0.1;
const DEFAULT_RECONNECT = '1h';

/** Checks a workload and resolves it against `now` (the virtual time it is attached). */
export function resolveWorkload(input: WorkloadInput, now: number): Result<WorkloadSpec, string> {
  if (typeof input !== 'object' || input === null)
    return err('a workload must be an object with a kind');
  if (!(WORKLOAD_KINDS as readonly unknown[]).includes(input.kind))
    return err(
      `unknown workload kind ${JSON.stringify(input.kind)} (${WORKLOAD_KINDS.join(', ')})`,
    );
  if (input.kind === 'trace') return resolveTrace(input);
  if (typeof input.endpointId !== 'string' || input.endpointId === '')
    return err(`${input.kind} workload: endpointId must name a compute`);
  const after = optionalDuration(input.after, `${input.kind}.after`);
  if (!after.ok) return after;
  const startAt = now + (after.value ?? 0);
  switch (input.kind) {
    case 'poisson': {
      const window = endOf(input, startAt);
      if (!window.ok) return window;
      const rates = resolveRates(input.rates, 'poisson.rates');
      if (!rates.ok) return rates;
      const offset = input.utcOffsetMinutes ?? 0;
      if (!Number.isInteger(offset) || Math.abs(offset) > 14 * 60)
        return err('poisson.utcOffsetMinutes must be a whole number of minutes within ±840');
      const session = resolveSession(input.session, 'poisson.session');
      if (!session.ok) return session;
      return ok({
        kind: 'poisson',
        endpointId: input.endpointId,
        startAt,
        endAt: window.value,
        rates: rates.value,
        utcOffsetMs: offset * 60_000,
        session: session.value,
      });
    }
    case 'cron':
    case 'worker': {
      const window = endOf(input, startAt);
      if (!window.ok) return window;
      const isWorker = input.kind === 'worker';
      const every = tryParseDuration(
        isWorker ? (input.reconnectEvery ?? DEFAULT_RECONNECT) : input.every,
      );
      if (!every.ok)
        return err(`${input.kind}.${isWorker ? 'reconnectEvery' : 'every'}: ${every.error}`);
      if (every.value < 1_000) return err(`${input.kind}: the period must be at least 1s`);
      const connections = isWorker ? input.connections : (input.connections ?? 1);
      if (!Number.isInteger(connections) || connections < 1 || connections > 10_000)
        return err(`${input.kind}.connections must be a whole number from 1 to 10000`);
      const session = isWorker
        ? resolveSession({ duration: every.value, cpu: input.cpu ?? DEFAULT_SESSION_CPU }, 'worker')
        : resolveSession(input.session, 'cron.session');
      if (!session.ok) return session;
      return ok({
        kind: 'cron',
        endpointId: input.endpointId,
        startAt,
        endAt: window.value,
        everyMs: every.value,
        connections,
        session: session.value,
      });
    }
    case 'burst': {
      const within = tryParseDuration(input.within);
      if (!within.ok) return err(`burst.within: ${within.error}`);
      if (!Number.isInteger(input.count) || input.count < 1 || input.count > 1_000_000)
        return err('burst.count must be a whole number from 1 to 1000000');
      const session = resolveSession(input.session, 'burst.session');
      if (!session.ok) return session;
      return ok({
        kind: 'burst',
        endpointId: input.endpointId,
        startAt,
        withinMs: within.value,
        count: input.count,
        session: session.value,
      });
    }
  }
}

function resolveSession(
  input: SessionInput | undefined,
  what: string,
): Result<SessionSpec, string> {
  if (typeof input !== 'object' || input === null)
    return err(`${what} must be an object with a duration`);
  const duration = resolveDistribution(input.duration, tryParseDuration, `${what}.duration`);
  if (!duration.ok) return duration;
  const cpu = resolveDistribution(input.cpu ?? DEFAULT_SESSION_CPU, number, `${what}.cpu`);
  if (!cpu.ok) return cpu;
  for (const field of ['memoryGb', 'workingSetGb', 'tempDiskGb'] as const) {
    const value = input[field];
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0))
      return err(`${what}.${field} must be a finite number ≥ 0`);
  }
  if (input.pooled !== undefined && typeof input.pooled !== 'boolean')
    return err(`${what}.pooled must be true or false`);
  return ok({
    duration: duration.value,
    cpu: cpu.value,
    memoryGb: input.memoryGb ?? 0,
    workingSetGb: input.workingSetGb ?? 0,
    tempDiskGb: input.tempDiskGb ?? 0,
    pooled: input.pooled ?? false,
  });
}

function resolveTrace(input: TraceInput): Result<WorkloadSpec, string> {
  if (!Array.isArray(input.rows)) return err('trace.rows must be a list of sessions');
  const endpointIds: string[] = [];
  const index = new Map<string, number>();
  const rows: [number, number, number, number][] = [];
  for (const [i, row] of input.rows.entries()) {
    const where = `trace row ${i + 1}`;
    if (typeof row !== 'object' || row === null) return err(`${where}: not an object`);
    const at = tryParseInstant(row.at);
    if (!at.ok) return err(`${where}: at: ${at.error}`);
    if (typeof row.endpointId !== 'string' || row.endpointId === '')
      return err(`${where}: endpointId must name a compute`);
    const duration = tryParseDuration(row.duration);
    if (!duration.ok) return err(`${where}: duration: ${duration.error}`);
    const cpu = row.cpu ?? DEFAULT_SESSION_CPU;
    if (typeof cpu !== 'number' || !Number.isFinite(cpu) || cpu < 0)
      return err(`${where}: cpu must be a finite number ≥ 0`);
    let endpoint = index.get(row.endpointId);
    if (endpoint === undefined) {
      endpoint = endpointIds.push(row.endpointId) - 1;
      index.set(row.endpointId, endpoint);
    }
    rows.push([at.value, endpoint, duration.value, Math.round(cpu * 1000)]);
  }
  rows.sort((a, b) => a[0] - b[0]);
  return ok({ kind: 'trace', rows, endpointIds });
}

function endOf(input: GeneratorBase, startAt: number): Result<number | null, string> {
  const span = optionalDuration(input.for, 'for');
  if (!span.ok) return span;
  return ok(span.value === undefined ? null : startAt + span.value);
}

function optionalDuration(
  value: Duration | undefined,
  what: string,
): Result<number | undefined, string> {
  if (value === undefined) return ok(undefined);
  const parsed = tryParseDuration(value);
  return parsed.ok ? parsed : err(`${what}: ${parsed.error}`);
}

function number(value: number): Result<number, string> {
  return typeof value === 'number'
    ? ok(value)
    : err(`expected a number, got ${JSON.stringify(value)}`);
}
