/**
 * The timeframes of a consumption history query: `from` rounded down and `to` rounded up to the
 * granularity (UTC hours, days or calendar months), cut into consecutive frames, with the real
 * service's limits on how far a query may reach (168 hours, 60 days, 12 months).
 */
import { err, ok, type Result } from '../core/result.js';
import { DAY_MS, HOUR_MS } from '../core/duration.js';

/** Granularities of the public API. */
export const CONSUMPTION_GRANULARITIES = ['hourly', 'daily', 'monthly'] as const;

/** A granularity of the public API. */
export type ConsumptionGranularity = (typeof CONSUMPTION_GRANULARITIES)[number];

/** The most frames one query may span, per granularity. */
const MAX_TIMEFRAMES: Readonly<Record<ConsumptionGranularity, number>> = {
  hourly: 168,
  daily: 60,
  monthly: 12,
};

/** One frame: `[start, end)`, epoch ms. */
export interface Timeframe {
  readonly start: number;
  readonly end: number;
}

/** The start of the frame holding `t`. */
function frameStart(t: number, granularity: ConsumptionGranularity): number {
  if (granularity === 'hourly') return Math.floor(t / HOUR_MS) * HOUR_MS;
  if (granularity === 'daily') return Math.floor(t / DAY_MS) * DAY_MS;
  const date = new Date(t);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

/** The start of the frame after the one starting at `start`. */
function nextFrame(start: number, granularity: ConsumptionGranularity): number {
  if (granularity === 'hourly') return start + HOUR_MS;
  if (granularity === 'daily') return start + DAY_MS;
  const date = new Date(start);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/**
 * The frames covering `[from, to)` (none when `to` ≤ `from`), or why the range cannot be served:
 * more frames than the granularity allows.
 */
export function timeframes(
  from: number,
  to: number,
  granularity: ConsumptionGranularity,
): Result<Timeframe[], string> {
  const frames: Timeframe[] = [];
  const limit = MAX_TIMEFRAMES[granularity];
  for (let start = frameStart(from, granularity); start < to;) {
    const end = nextFrame(start, granularity);
    frames.push({ start, end });
    if (frames.length > limit)
      return err(`a ${granularity} history spans at most ${limit} timeframes`);
    start = end;
  }
  return ok(frames);
}
