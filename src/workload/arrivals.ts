/**
 * The sessions a workload generates, one by index: when the next one arrives and what it does. Draws
 * come from streams keyed by the workload and the session's index alone, so the same seed gives the
 * same sessions under any configuration (common random numbers for comparisons).
 */
import type { RandomSource } from '../core/randomSource.js';
import { nextArrival } from './dailyRates.js';
import { sample } from './distribution.js';
import type { WorkloadSpec } from './workloadSpec.js';

/** A seeded stream for one purpose and index (see `DecideContext.stream`). */
export type StreamFor = (purpose: string, index: number) => RandomSource;

/** What one session does: where it connects, for how long, with what demand. */
export interface Session {
  readonly endpointId: string;
  readonly holdMs: number;
  /** CPU demand in thousandths of a vCPU (integers keep load sums exact). */
  readonly milliCpu: number;
  readonly memoryGb: number;
  readonly workingSetGb: number;
  readonly tempDiskGb: number;
  readonly pooled: boolean;
}

/**
 * When session `index` arrives, given when session `index - 1` did (`null` for the first), or `null`
 * when the workload has no more sessions.
 */
export function arrivalAt(
  spec: WorkloadSpec,
  workloadId: string,
  index: number,
  previousAt: number | null,
  stream: StreamFor,
): number | null {
  switch (spec.kind) {
    case 'poisson': {
      const mass = stream(`workload:${workloadId}:gap`, index).exponential(1);
      const at = nextArrival(spec.rates, previousAt ?? spec.startAt, mass, spec.utcOffsetMs);
      return at === null || (spec.endAt !== null && at >= spec.endAt) ? null : at;
    }
    case 'cron': {
      const at = spec.startAt + Math.floor(index / spec.connections) * spec.everyMs;
      return spec.endAt !== null && at >= spec.endAt ? null : at;
    }
    case 'burst': {
      if (index >= spec.count) return null;
      const slot = spec.withinMs / spec.count;
      const jitter = stream(`workload:${workloadId}:gap`, index).float();
      return spec.startAt + Math.floor((index + jitter) * slot);
    }
    case 'trace':
      return spec.rows[index]?.[0] ?? null;
  }
}

/** What session `index` of a workload does. */
export function sessionOf(
  spec: WorkloadSpec,
  workloadId: string,
  index: number,
  stream: StreamFor,
): Session {
  if (spec.kind === 'trace') {
    const [, endpoint, holdMs, milliCpu] = spec.rows[index] ?? [0, 0, 0, 0];
    return {
      endpointId: spec.endpointIds[endpoint] ?? '',
      holdMs,
      milliCpu,
      memoryGb: 0,
      workingSetGb: 0,
      tempDiskGb: 0,
      pooled: false,
    };
  }
  const random = stream(`workload:${workloadId}:session`, index);
  const { session } = spec;
  return {
    endpointId: spec.endpointId,
    holdMs: Math.max(0, Math.round(sample(session.duration, random))),
    milliCpu: Math.max(0, Math.round(sample(session.cpu, random) * 1000)),
    memoryGb: session.memoryGb,
    workingSetGb: session.workingSetGb,
    tempDiskGb: session.tempDiskGb,
    pooled: session.pooled,
  };
}
