/**
 * The simulation as the API's pipeline and route handlers reach it (a `RequestTarget`): its engine,
 * profile and API keys, the rate limiter its profile asks for, deterministic request ids, and the
 * answers for the engine errors that are not bugs.
 */
import { requestId } from '../core/requestIds.js';
import type { PostgresAddress } from '../domain/connectionUri.js';
import type { Profile } from '../domain/profile.js';
import { reject } from '../domain/rejection.js';
import type { ApiKey } from '../api/apiKey.js';
import { errorResponse, type ApiResponse } from '../api/apiResponse.js';
import { RateLimiter } from '../api/rateLimiter.js';
import type { RequestTarget } from '../api/requestTarget.js';
import { LogUnavailableError, StepLimitError } from '../engine/errors.js';
import type { ControlPlaneEngine } from './simulationEngine.js';

/**
 * The request target over `engine`: it reads the keys in `apiKeys` and the Postgres front as they
 * are when asked, and counts rate limits on the virtual clock when `profile` switches them on.
 */
export function targetOf(
  engine: ControlPlaneEngine,
  profile: Profile,
  apiKeys: ReadonlyMap<string, ApiKey>,
  postgresFront: () => PostgresAddress | undefined,
): RequestTarget {
  const limiter = limiterOf(engine, profile);
  let issuedIds = 0;
  return {
    get postgresFront() {
      return postgresFront();
    },
    ...(limiter === undefined
      ? {}
      : { admit: (caller: string, route: string) => limiter.admit(caller, route) }),
    // Handlers copy what they need into JSON at once, so they may read the live state (no publish).
    get state() {
      return engine.live;
    },
    profile,
    apiKeys,
    execute: (command) => engine.execute(command),
    get now() {
      return engine.now;
    },
    get start() {
      return engine.start;
    },
    stateAt: (t) => engine.stateAt(t),
    keepsHistory: engine.log.keepsEvents,
    answerFor: knownFailure,
    // Keyed by the log position and a count, so the same requests get the same ids on every run.
    nextRequestId: () => requestId(engine.seed, 'request-ids', engine.log.length, issuedIds++),
  };
}

/** The server's rate limiter, on the virtual clock, when the profile switches limits on. */
function limiterOf(engine: ControlPlaneEngine, profile: Profile): RateLimiter | undefined {
  const { enabled, perKeyPerMinute, perRoutePerSecond } = profile.rateLimits;
  if (!enabled) return undefined;
  return new RateLimiter({ perKeyPerMinute, perRoutePerSecond }, () => engine.now);
}

/**
 * The answer for an engine error that is not a bug: the log can take no more events (closed, or its
 * sink failed: the call that failed has its events in the state, not in the file) is a 503; a timer
 * loop past its step limit a 409. Each carries the error's first line.
 */
function knownFailure(error: unknown): ApiResponse | undefined {
  if (!(error instanceof LogUnavailableError || error instanceof StepLimitError)) return undefined;
  const message = error.message.split('\n')[0] ?? '';
  if (error instanceof StepLimitError) return errorResponse(reject('conflict', message));
  return { status: 503, body: { code: 'service_unavailable', message } };
}
