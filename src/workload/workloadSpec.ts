/**
 * What users attach to a simulation to generate traffic: Poisson sessions that follow the clock,
 * cron jobs, long-held worker connections, bursts, and recorded traces. Specs are declared once as
 * schemas (strict at every depth: a misspelled key is refused, naming its path), checked once when a
 * workload is attached, and resolved (durations to milliseconds, times to epoch ms) into plain JSON
 * the event log can hold.
 */
import { z } from 'zod';
import { err, ok, type Result } from '../core/result.js';
import {
  durationMs,
  instantMs,
  nonNegative,
  parseInput,
  satisfying,
  strictObject,
  type Immutable,
} from '../core/schema.js';
import { RATES_SCHEMA, type DailyRates } from './dailyRates.js';
import { distributionSchema } from './distribution.js';

/** The kinds of workload. */
const WORKLOAD_KINDS = ['poisson', 'cron', 'worker', 'burst', 'trace'] as const;

/** Default CPU demand of a session, vCPUs. */
const DEFAULT_SESSION_CPU = 0.1;

const endpointId = satisfying<string>(
  (id) => typeof id === 'string' && id !== '',
  'must name a compute',
);
const cpuValue = nonNegative();
/** A period of at least a second. */
const period = durationMs.pipe(z.number().min(1_000, { error: 'must be at least 1s' }));
const connections = satisfying<number>(
  (n) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 10_000,
  'must be a whole number from 1 to 10000',
);

/** What one session does once connected. */
const sessionSchema = strictObject({
  /** How long the client holds the connection once it is open. */
  duration: distributionSchema(durationMs),
  /** CPU demand while connected, in vCPUs (default 0.1). */
  cpu: distributionSchema(cpuValue).prefault(DEFAULT_SESSION_CPU),
  /** Memory the session's queries hold, GB (default 0). */
  memoryGb: nonNegative().default(0),
  /** Data the session keeps touching, GB (default 0): autoscaling keeps it in the cache. */
  workingSetGb: nonNegative().default(0),
  /** Temporary disk its biggest statement needs, GB; above the compute's ~20 GB it fails (53100). */
  tempDiskGb: nonNegative().default(0),
  /** Through the connection pooler (default: a direct connection). */
  pooled: z.boolean({ error: 'must be true or false' }).default(false),
});

/** Where and when a generator runs: the compute, and an optional window after it is attached. */
const generatorBase = {
  endpointId,
  /** Start this long after being attached (default 0). */
  after: durationMs.optional(),
  /** Stop generating this long after being attached (default: never). */
  for: durationMs.optional(),
};

/** Sessions arriving as a Poisson process whose rate follows the hour of day and day of week. */
const poissonSchema = strictObject({
  kind: z.literal('poisson'),
  ...generatorBase,
  /** Sessions per hour: one number, or per hour of day for weekdays and weekends. */
  rates: RATES_SCHEMA,
  /** Local time of the traffic as an offset from UTC, minutes (default 0). */
  utcOffsetMinutes: satisfying<number>(
    (n) => Number.isInteger(n) && Math.abs(n as number) <= 14 * 60,
    'must be a whole number of minutes within ±840',
  ).default(0),
  session: sessionSchema,
});

/** A job every `every`, each run opening `connections` sessions (default 1). */
const cronSchema = strictObject({
  kind: z.literal('cron'),
  ...generatorBase,
  every: period,
  connections: connections.default(1),
  session: sessionSchema,
});

/** Background workers: `connections` held all the time, re-established every `reconnectEvery`. */
const workerSchema = strictObject({
  kind: z.literal('worker'),
  ...generatorBase,
  connections,
  /** Default 1h: a connection dropped by a restart is back within this. */
  reconnectEvery: period.prefault('1h'),
  /** CPU demand of each worker connection, vCPUs (default 0.1). */
  cpu: cpuValue.default(DEFAULT_SESSION_CPU),
});

/** `count` sessions spread over `within`, starting `after` the attachment. */
const burstSchema = strictObject({
  kind: z.literal('burst'),
  endpointId,
  after: generatorBase.after,
  count: satisfying<number>(
    (n) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 1_000_000,
    'must be a whole number from 1 to 1000000',
  ),
  within: durationMs,
  session: sessionSchema,
});

/** One recorded session of a trace. */
const traceRowSchema = strictObject({
  at: instantMs,
  endpointId,
  duration: durationMs,
  /** vCPUs (default 0.1). */
  cpu: cpuValue.default(DEFAULT_SESSION_CPU),
});

/** A recorded trace replayed as is (see `parseTrace` for CSV and JSON Lines files). */
const traceSchema = strictObject({
  kind: z.literal('trace'),
  rows: z.array(traceRowSchema, { error: 'must be a list of sessions' }),
});

const workloadSchema = z.discriminatedUnion('kind', [
  poissonSchema,
  cronSchema,
  workerSchema,
  burstSchema,
  traceSchema,
]);

/** What one session does once connected. */
export type SessionInput = Immutable<z.input<typeof sessionSchema>>;
/** Sessions arriving as a Poisson process whose rate follows the hour of day and day of week. */
export type PoissonInput = Immutable<z.input<typeof poissonSchema>>;
/** A job every `every`, each run opening `connections` sessions (default 1). */
export type CronInput = Immutable<z.input<typeof cronSchema>>;
/** Background workers: `connections` held all the time, re-established every `reconnectEvery`. */
export type WorkerInput = Immutable<z.input<typeof workerSchema>>;
/** `count` sessions spread over `within`, starting `after` the attachment. */
export type BurstInput = Immutable<z.input<typeof burstSchema>>;
/** One recorded session of a trace. */
export type TraceRow = Immutable<z.input<typeof traceRowSchema>>;
/** A recorded trace replayed as is (see `parseTrace` for CSV and JSON Lines files). */
export type TraceInput = Immutable<z.input<typeof traceSchema>>;
/** Any workload a user can attach. */
export type WorkloadInput = Immutable<z.input<typeof workloadSchema>>;

/** A session's attributes, resolved. */
type SessionSpec = z.output<typeof sessionSchema>;

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

/**
 * Checks a workload (once, when it is attached) and resolves it against `now` (the virtual time it
 * is attached). A refusal names the path of the field, under the kind (`poisson.session.cpu …`).
 */
export function resolveWorkload(input: WorkloadInput, now: number): Result<WorkloadSpec, string> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return err('a workload must be an object with a kind');
  if (!(WORKLOAD_KINDS as readonly unknown[]).includes(input.kind))
    return err(
      `unknown workload kind ${JSON.stringify(input.kind)} (${WORKLOAD_KINDS.join(', ')})`,
    );
  const parsed = parseInput(workloadSchema, input, input.kind);
  if (!parsed.ok) return parsed;
  const workload = parsed.value;
  if (workload.kind === 'trace') return ok(traceSpec(workload.rows));
  const startAt = now + (workload.after ?? 0);
  switch (workload.kind) {
    case 'poisson':
      return ok({
        kind: 'poisson',
        endpointId: workload.endpointId,
        startAt,
        endAt: endOf(workload.for, startAt),
        rates: workload.rates,
        utcOffsetMs: workload.utcOffsetMinutes * 60_000,
        session: workload.session,
      });
    case 'cron':
    case 'worker':
      return ok({
        kind: 'cron',
        endpointId: workload.endpointId,
        startAt,
        endAt: endOf(workload.for, startAt),
        everyMs: workload.kind === 'worker' ? workload.reconnectEvery : workload.every,
        connections: workload.connections,
        session:
          workload.kind === 'worker'
            ? {
                duration: { dist: 'fixed', value: workload.reconnectEvery },
                cpu: { dist: 'fixed', value: workload.cpu },
                memoryGb: 0,
                workingSetGb: 0,
                tempDiskGb: 0,
                pooled: false,
              }
            : workload.session,
      });
    case 'burst':
      return ok({
        kind: 'burst',
        endpointId: workload.endpointId,
        startAt,
        withinMs: workload.within,
        count: workload.count,
        session: workload.session,
      });
  }
}

function traceSpec(input: z.output<typeof traceSchema>['rows']): WorkloadSpec {
  const endpointIds: string[] = [];
  const index = new Map<string, number>();
  const rows: [number, number, number, number][] = [];
  for (const row of input) {
    let endpoint = index.get(row.endpointId);
    if (endpoint === undefined) {
      endpoint = endpointIds.push(row.endpointId) - 1;
      index.set(row.endpointId, endpoint);
    }
    rows.push([row.at, endpoint, row.duration, Math.round(row.cpu * 1000)]);
  }
  rows.sort((a, b) => a[0] - b[0]);
  return { kind: 'trace', rows, endpointIds };
}

function endOf(span: number | undefined, startAt: number): number | null {
  return span === undefined ? null : startAt + span;
}
