/**
 * What the service needs of a simulation, and nothing more: `Simulation` has all of it. Declared
 * here so the service need not import the simulation, nor the simulation the service.
 */
import type { ApiResponse } from '../api/apiResponse.js';
import type { ApiRequest, PipelineHooks, RequestOptions } from '../api/requestPipeline.js';
import type { ErrorCodes } from '../domain/profile.js';
import type { SqlError } from '../domain/sqlState.js';
import type { EventLog } from '../engine/eventLog.js';
import type { LoggedEvent } from '../engine/loggedEvent.js';

/** A simulated client connection as the control routes show it. */
export interface ServedConnection {
  readonly id: string;
  readonly endpointId: string;
  readonly pooled: boolean;
  readonly state: string;
  readonly error: SqlError | undefined;
  /** `idle`, `active` or `idle in transaction` while open. */
  readonly activity: string | undefined;
  close(): void;
  query(durationMs: number): StatementOutcome;
  begin(): StatementOutcome;
  commit(): StatementOutcome;
}

/** What a statement on a connection answered: accepted, or refused with a SQLSTATE. */
export type StatementOutcome =
  { readonly ok: true } | { readonly ok: false; readonly error: SqlError };

/** A simulation the service can serve. */
export interface ServedSimulation {
  readonly seed: number;
  /** How error bodies name their code (the profile's `errorCodes`). */
  readonly profile: { readonly errorCodes: ErrorCodes };
  readonly log: EventLog<LoggedEvent>;
  now(): number;
  /** When the next timer of the agenda is due (`Infinity`: none). */
  readonly pending: { readonly nextDue: number };
  request(method: string, path: string, body?: unknown, options?: RequestOptions): ApiResponse;
  /** A request through the API's pipeline with the server's additions (`Simulation.answer`). */
  answer<A extends ApiResponse, C>(
    request: ApiRequest,
    hooks: PipelineHooks<A, C>,
  ): ApiResponse | A | Promise<ApiResponse | A>;
  connect(endpointId: string, options?: { readonly pooled?: boolean }): ServedConnection;
  knowsApiKey(key: string): boolean;
  advanceToward(instant: number, maxTimers: number): boolean;
  runTowardIdle(deadline: number, maxTimers: number): 'idle' | 'deadline' | 'more';
}
