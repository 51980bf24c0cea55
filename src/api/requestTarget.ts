/**
 * What a route handler can reach: the current state, the profile, and a way to execute commands.
 */
import type { Result } from '../core/result.js';
import type { ApiKey } from './apiKey.js';
import type { PostgresAddress } from '../domain/connectionUri.js';
import type { Profile } from '../domain/profile.js';
import type { Rejection } from '../domain/rejection.js';
import type { ApiResponse } from './apiResponse.js';
import type { RequestCommand } from '../model/commands.js';
import type { DomainEvent } from '../model/events.js';
import type { SimState } from '../model/state.js';

/** The simulation as route handlers see it. */
export interface RequestTarget {
  /** The current state; read it, copy what you need, keep no reference (it may be the live one). */
  readonly state: SimState;
  readonly profile: Profile;
  /** Accepted API keys by key; empty means no authentication. */
  readonly apiKeys: ReadonlyMap<string, ApiKey>;
  execute(command: RequestCommand): Result<readonly DomainEvent[], Rejection>;
  /** The virtual time now, epoch ms (usage of computes still active is counted up to it). */
  readonly now: number;
  /** The state as it stood at a past instant (`start` ≤ `t` ≤ `now`). */
  stateAt(t: number): SimState;
  /**
   * Whether `stateAt` can rebuild any past instant: the log is kept in memory. Without it, only
   * the instants from the last event on.
   */
  readonly keepsHistory: boolean;
  /** When the simulation started, epoch ms. */
  readonly start: number;
  /**
   * Rate limits, when on: counts a request of `caller` on `route` (`METHOD /pattern`) and returns
   * the seconds to wait before retrying when it is over a limit.
   */
  admit?(caller: string, route: string): number | undefined;
  /**
   * A new `request_id` for an error answered to a request that sent none: deterministic (a
   * purpose-keyed stream of the seed), never from the wall clock or ambient randomness.
   */
  nextRequestId(): string;
  /**
   * The answer for an error thrown while answering that is not a bug (the log can take no more
   * events: a 503; a timer loop ran past its step limit: a 409); `undefined` for any other.
   */
  answerFor?(error: unknown): ApiResponse | undefined;
  /** Where a Postgres front serves the computes, if one does: connection URIs point at it. */
  readonly postgresFront: PostgresAddress | undefined;
}
