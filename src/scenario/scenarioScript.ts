/**
 * What a scenario's script can do: schedule steps at virtual times, send requests, connect clients,
 * attach workloads, wait for operations, narrate and check. Every call is written to the timeline.
 */
import type { ApiResponse } from '../api/apiResponse.js';
import type { RequestOptions } from '../api/requestPipeline.js';
import type { Duration } from '../core/duration.js';
import type { Connection } from '../simulation/connection.js';
import type { Simulation } from '../simulation/simulation.js';
import type { SimState } from '../model/state.js';
import type { WorkloadInput } from '../workload/workloadSpec.js';

/**
 * When a step runs: `'+5m'` after the current time (the step being run, or the start), `'5m'` into
 * the scenario, an ISO instant, or epoch milliseconds.
 */
export type When = string | number;

/** An operation as responses list it (only what waiting needs). */
export interface OperationRef {
  readonly id: string;
  readonly project_id: string;
}

/** An operation as polling sees it. */
export interface PolledOperation {
  readonly id: string;
  readonly action: string;
  readonly status: string;
}

/** Options of `connections`: the slot length, how long each client stays, and where it starts. */
export interface ConnectionsOptions {
  /** Length of one character (default one minute). */
  readonly unit?: Duration;
  /** How long each client stays connected (default 30 s). */
  readonly hold?: Duration;
}

/** Options of `lifecycle`. */
export interface LifecycleWindow {
  /** First slot's start (default: the scenario's start; same forms as `at`). */
  readonly from?: When;
  /** Length of a slot (default one minute). */
  readonly unit?: Duration;
  /** Number of slots (default: up to now). */
  readonly slots?: number;
}

/** Options of a repeating step. */
export interface EveryOptions {
  /** Stop repeating after this instant (same forms as `at`). */
  readonly until?: When;
  /** Run at most this many times. */
  readonly times?: number;
}

/** The script's handle on a running scenario. */
export interface ScenarioScript {
  /** The simulation, for anything the script API does not cover (not narrated). */
  readonly sim: Simulation;
  /** The current virtual time, epoch ms. */
  readonly now: number;
  /** The current state (immutable snapshot). */
  readonly state: SimState;
  /** Runs `step` at `when` (steps at the same instant run in the order they were scheduled). */
  at(when: When, step: () => void): void;
  /** Runs `step` every `interval` from now on, until it calls `stop()` or `options` end it. */
  every(interval: Duration, step: (stop: () => void) => void, options?: EveryOptions): void;
  /** Sends a request (narrated with its response). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request<B = any>(
    method: string,
    path: string,
    body?: unknown,
    options?: RequestOptions,
  ): ApiResponse<B>;
  /** Connects a client (narrated). */
  connect(endpointId: string, options?: { readonly pooled?: boolean }): Connection;
  /** Attaches a workload (narrated); returns its id. */
  workload(input: WorkloadInput): string;
  /**
   * Polls the operations every 5 s (or `every`), as the API tells clients to, until every one has
   * a terminal status (finished, error, cancelled, skipped; `failed` is retried, so it waits on);
   * then calls `then` with their final records.
   */
  waitFor(
    operations: readonly OperationRef[],
    then?: (operations: readonly PolledOperation[]) => void,
    options?: { readonly every?: Duration },
  ): void;
  /**
   * Checks `actual` against `expected` (a value, compared deeply, or a predicate). A failure stops
   * the run and reports the virtual time, the expectation and the actual value.
   */
  expect<T>(what: string, actual: T, expected: T | ((actual: T) => boolean)): void;
  /**
   * Connects clients following a timeline pattern from now on, one character per `unit`:
   * `-` nobody, `c` one client, `2`-`9` that many (`|` and spaces are ignored). Each client stays
   * `hold`, then disconnects.
   */
  connections(endpointId: string, pattern: string, options?: ConnectionsOptions): void;
  /**
   * The compute's lifecycle so far in timeline notation (`S` start, `z` suspend, `R` restart,
   * `c` connection, `x` refused or dropped, `=` active, `-` idle), for `expect`.
   */
  lifecycle(endpointId: string, window?: LifecycleWindow): string;
  /** A narration line, for teaching. */
  note(text: string): void;
}
