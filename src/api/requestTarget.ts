/**
 * What a route handler can reach: the current state, the profile, and a way to execute commands.
 */
import type { Result } from '../core/result.js';
import type { ApiKey } from './apiKey.js';
import type { Profile } from '../domain/profile.js';
import type { Rejection } from '../domain/rejection.js';
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
  /**
   * A new `request_id` for an error answered to a request that sent none: deterministic (a
   * purpose-keyed stream of the seed), never from the wall clock or ambient randomness.
   */
  nextRequestId(): string;
}
