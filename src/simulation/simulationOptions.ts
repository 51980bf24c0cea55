/**
 * What a new simulation can be given (seed, start, profile, log keeping, API keys, tuning) and the
 * defaults of what it is not.
 */
import type { Instant } from '../core/instant.js';
import type { ProfileChoice } from '../domain/profile.js';
import type { ApiKey } from '../api/apiKey.js';
import type { LogKeeping } from '../engine/eventLog.js';

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
