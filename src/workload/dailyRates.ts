/**
 * Arrival rates that follow the clock: sessions per hour for each hour of the day, on weekdays and on
 * weekends, and the next arrival of the (non-homogeneous) Poisson process they define.
 */
import { z } from 'zod';
import { nonNegative, satisfying, strictObject } from '../core/schema.js';
import { DAY_MS, HOUR_MS } from '../core/duration.js';

const WEEK_MS = 7 * DAY_MS;
/** 1970-01-01 was a Thursday (0 = Sunday). */
const EPOCH_WEEKDAY = 4;

/** Sessions per hour for each hour of the day (index 0 = 00:00-01:00), weekdays and weekends. */
export interface DailyRates {
  readonly weekday: readonly number[];
  readonly weekend: readonly number[];
}

/** Rates as users write them: one number for every hour, or a daily profile. */
export type RatesInput = number | DailyRates;

/**
 * Office-hours traffic: `peak` sessions/h on weekdays from `from` to `to` o'clock, `offPeak` at every
 * other hour and all weekend.
 */
export function officeHours(options: {
  readonly peak: number;
  readonly offPeak: number;
  readonly from?: number;
  readonly to?: number;
}): DailyRates {
  const from = options.from ?? 8;
  const to = options.to ?? 18;
  return {
    weekday: Array.from({ length: 24 }, (_, h) =>
      h >= from && h < to ? options.peak : options.offPeak,
    ),
    weekend: Array.from({ length: 24 }, () => options.offPeak),
  };
}

const hourly = satisfying<readonly number[]>(
  (rates) =>
    Array.isArray(rates) &&
    rates.length === 24 &&
    rates.every((r) => typeof r === 'number' && Number.isFinite(r) && r >= 0),
  'must list 24 finite rates ≥ 0 (sessions per hour, hour 0 first)',
);

/** Rates checked and normalised: 24 finite, non-negative numbers per day kind. */
export const RATES_SCHEMA = z.union([
  nonNegative('must be a finite number of sessions per hour ≥ 0').transform((rate): DailyRates => {
    const all = Array.from({ length: 24 }, () => rate);
    return { weekday: all, weekend: all };
  }),
  strictObject({ weekday: hourly, weekend: hourly }).transform((rates): DailyRates => ({
    weekday: [...rates.weekday],
    weekend: [...rates.weekend],
  })),
]);

/** Sessions per hour at `t` (epoch ms, shifted by `utcOffsetMs` to local time). */
export function rateAt(rates: DailyRates, t: number, utcOffsetMs = 0): number {
  const local = t + utcOffsetMs;
  const day = (((Math.floor(local / DAY_MS) + EPOCH_WEEKDAY) % 7) + 7) % 7;
  const hour = Math.floor((((local % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS);
  const row = day === 0 || day === 6 ? rates.weekend : rates.weekday;
  return row[hour] ?? 0;
}

/**
 * The next arrival after `from` of the Poisson process with these rates, given `mass`, a draw of an
 * exponential with mean 1 (the expected number of arrivals to wait through). Walks hour by hour
 * through the cumulative intensity; `null` when a whole week has no traffic.
 */
export function nextArrival(
  rates: DailyRates,
  from: number,
  mass: number,
  utcOffsetMs = 0,
): number | null {
  let t = from;
  let remaining = mass;
  let quiet = 0;
  while (quiet < WEEK_MS + HOUR_MS) {
    const hourEnd = (Math.floor((t + utcOffsetMs) / HOUR_MS) + 1) * HOUR_MS - utcOffsetMs;
    const rate = rateAt(rates, t, utcOffsetMs);
    const span = hourEnd - t;
    if (rate > 0) {
      quiet = 0;
      const available = (rate * span) / HOUR_MS;
      if (remaining <= available) return t + Math.max(1, Math.round((remaining / rate) * HOUR_MS));
      remaining -= available;
    } else {
      quiet += span;
    }
    t = hourEnd;
  }
  return null;
}

/**
 * Sessions expected from `from` to `to` at these rates (the integral of the rate): how much of an
 * arrival's exponential draw that stretch of time uses up.
 */
export function expectedArrivals(
  rates: DailyRates,
  from: number,
  to: number,
  utcOffsetMs = 0,
): number {
  let total = 0;
  for (let t = from; t < to;) {
    const hourEnd = (Math.floor((t + utcOffsetMs) / HOUR_MS) + 1) * HOUR_MS - utcOffsetMs;
    const end = Math.min(hourEnd, to);
    total += (rateAt(rates, t, utcOffsetMs) * (end - t)) / HOUR_MS;
    t = end;
  }
  return total;
}
