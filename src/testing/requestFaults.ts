/**
 * Request faults injected at the client's edge: bursts of 423 (a resource is locked) on mutating
 * requests, 429s (rate limited, with `Retry-After`) and 503s (the service unavailable for a moment,
 * the request not applied), overall or per route. Decisions are drawn in
 * request order from the seed, so the same client under the same seed meets the same faults.
 */
import { z } from 'zod';
import { RandomSource } from '../core/randomSource.js';
import { parseInput, satisfying, strictObject, whole, type Immutable } from '../core/schema.js';
import { isRetryable } from './oracles/politeness.js';

const rate = satisfying<number>(
  (n) => typeof n === 'number' && n >= 0 && n <= 1,
  'must be in 0..1',
);

/** 423 bursts: a mutating request starts a burst with probability `rate`; `burst` is its length. */
const lockedSchema = strictObject({
  rate,
  /** How many mutating requests of the project a burst refuses, drawn in [min, max]. Default [1, 3]. */
  burst: satisfying<readonly [min: number, max: number]>(
    (burst) =>
      Array.isArray(burst) &&
      burst.length === 2 &&
      burst.every((n) => Number.isSafeInteger(n) && (n as number) >= 1) &&
      (burst[0] as number) <= (burst[1] as number),
    'must be [min, max] with 1 ≤ min ≤ max',
  ).optional(),
});

/** 429s: any request is refused with probability `rate`, with `Retry-After: retryAfterSeconds`. */
const rateLimitedSchema = strictObject({
  rate,
  /** Default 1. */
  retryAfterSeconds: whole(0, 'must be whole seconds ≥ 0').optional(),
});

/**
 * 503s: any request is answered `503 service unavailable` with probability `rate`, without reaching
 * the simulation (a retry is safe), with `Retry-After: retryAfterSeconds` when set.
 */
const unavailableSchema = strictObject({
  rate,
  retryAfterSeconds: whole(0, 'must be whole seconds ≥ 0').optional(),
});

const ROUTE_KEY = /^(GET|POST|PATCH|DELETE) \/\S*$/;

/** Request faults, for every route or per route. */
const requestFaultsSchema = strictObject({
  locked: lockedSchema.optional(),
  rateLimited: rateLimitedSchema.optional(),
  unavailable: unavailableSchema.optional(),
  /** The most refusals in a row after which a request meets no injected fault. Default 3. */
  maxInARow: whole(1, 'must be a whole number ≥ 1').optional(),
  /**
   * Per route, keyed `METHOD /pattern` as in the route table (`POST /projects/{project_id}/branches`);
   * a route listed here uses only its own settings.
   */
  routes: z
    .record(
      z.string(),
      strictObject({
        locked: lockedSchema.optional(),
        rateLimited: rateLimitedSchema.optional(),
        unavailable: unavailableSchema.optional(),
      }),
    )
    .check((context) => {
      const route = Object.keys(context.value).find((key) => !ROUTE_KEY.test(key));
      if (route !== undefined)
        context.issues.push({
          code: 'custom',
          message: `${JSON.stringify(route)} must be "METHOD /pattern", e.g. "POST /projects/{project_id}/branches"`,
          input: context.value,
        });
    })
    .optional(),
});

/** 423 bursts: a mutating request starts a burst with probability `rate`; `burst` is its length. */
export type LockedFaults = Immutable<z.input<typeof lockedSchema>>;
/** 429s: any request is refused with probability `rate`, with `Retry-After: retryAfterSeconds`. */
export type RateLimitedFaults = Immutable<z.input<typeof rateLimitedSchema>>;
/** 503s: any request is answered 503 with probability `rate`, the request not applied. */
export type UnavailableFaults = Immutable<z.input<typeof unavailableSchema>>;
/** Request faults, for every route or per route. */
export type RequestFaults = Immutable<z.input<typeof requestFaultsSchema>>;

/** The schema of request faults, for fault profiles. */
export const REQUEST_FAULTS_SCHEMA = requestFaultsSchema;

/** What the injector decided for one request. */
export type InjectedFault =
  | { readonly kind: 'locked' }
  | { readonly kind: 'rate_limited'; readonly retryAfterSeconds: number }
  | { readonly kind: 'unavailable'; readonly retryAfterSeconds?: number };

/** What is wrong with request faults, or undefined (one line naming the field's path). */
export function requestFaultsProblem(faults: RequestFaults): string | undefined {
  const parsed = parseInput(requestFaultsSchema, faults, '');
  return parsed.ok ? undefined : parsed.error;
}

/** A request's key: its method and path (the same request asked again is a retry). */
function askedKey(method: string, path: string): string {
  return `${method} ${path}`;
}

/** The most refusals in a row one request (method and path) may have met for a fault to be injected. */
const MAX_FAULTS_IN_A_ROW = 3;

/** Decides, request after request, which ones meet an injected fault. */
export class RequestFaultInjector {
  readonly #faults: RequestFaults;
  /**
   * One stream per kind of fault: a kind left out of a profile (as shrinking leaves one out)
   * leaves the others' decisions as they were, so parts that never fired can shrink away.
   */
  readonly #random: Readonly<Record<InjectedFault['kind'], RandomSource>>;
  /** Mutating requests still to refuse, per project, in the burst under way. */
  readonly #bursts = new Map<string, number>();
  /** Refusals in a row (injected or not), by method and path. */
  readonly #inARow = new Map<string, number>();

  constructor(faults: RequestFaults, seed: number) {
    this.#faults = faults;
    this.#random = {
      locked: RandomSource.derive(seed, 'request-faults-locked', 0),
      rate_limited: RandomSource.derive(seed, 'request-faults-rate-limited', 0),
      unavailable: RandomSource.derive(seed, 'request-faults-unavailable', 0),
    };
  }

  /**
   * The fault for the next request (undefined: let it through to the simulation). No fault is
   * injected into a request (one method and path) already refused `maxInARow` times in a row
   * (default {@link MAX_FAULTS_IN_A_ROW}), by injected faults or the simulation's own refusals
   * alike: injected faults never make a streak of refusals longer than the simulation's own, so a
   * client whose retries outlast the simulation's locks gets through every fault the profile
   * injects.
   */
  next(request: {
    readonly method: string;
    readonly path?: string;
    readonly route?: string;
    readonly projectId?: string;
  }): InjectedFault | undefined {
    const inARow = this.#inARow.get(askedKey(request.method, request.path ?? '')) ?? 0;
    const most = this.#faults.maxInARow ?? MAX_FAULTS_IN_A_ROW;
    return inARow >= most ? undefined : this.#draw(request);
  }

  /** What a request was answered, injected or not: refusals in a row are counted by request. */
  answered(
    method: string,
    path: string,
    answer: { readonly status: number; readonly body: unknown },
  ): void {
    const key = askedKey(method, path);
    if (isRetryable({ status: answer.status, response: answer.body }))
      this.#inARow.set(key, (this.#inARow.get(key) ?? 0) + 1);
    else this.#inARow.delete(key);
  }

  /**
   * Each kind decides on its own stream, for every request it applies to, whatever the others
   * decide; then the first that fired, in the order 429, 503, 423, answers the request.
   */
  #draw(request: {
    readonly method: string;
    readonly route?: string;
    readonly projectId?: string;
  }): InjectedFault | undefined {
    const key = request.route === undefined ? undefined : `${request.method} ${request.route}`;
    const own = key === undefined ? undefined : this.#faults.routes?.[key];
    const settings = own ?? (key === undefined ? {} : this.#faults);
    const limited = settings.rateLimited;
    const limitedFired = limited !== undefined && this.#random.rate_limited.chance(limited.rate);
    const unavailable = settings.unavailable;
    const unavailableFired =
      unavailable !== undefined && this.#random.unavailable.chance(unavailable.rate);
    const lockedFired = this.#lockedFires(request, settings.locked);
    if (limitedFired)
      return { kind: 'rate_limited', retryAfterSeconds: limited.retryAfterSeconds ?? 1 };
    if (unavailableFired)
      return unavailable.retryAfterSeconds === undefined
        ? { kind: 'unavailable' }
        : { kind: 'unavailable', retryAfterSeconds: unavailable.retryAfterSeconds };
    return lockedFired ? { kind: 'locked' } : undefined;
  }

  /** Whether a 423 refuses this request: a burst under way, or a new one drawn. */
  #lockedFires(
    request: { readonly method: string; readonly projectId?: string },
    locked: LockedFaults | undefined,
  ): boolean {
    if (request.method === 'GET' || request.projectId === undefined) return false;
    const remaining = this.#bursts.get(request.projectId) ?? 0;
    if (remaining > 0) {
      this.#bursts.set(request.projectId, remaining - 1);
      return true;
    }
    if (locked === undefined || !this.#random.locked.chance(locked.rate)) return false;
    const [min, max] = locked.burst ?? [1, 3];
    this.#bursts.set(request.projectId, this.#random.locked.int(min, max) - 1);
    return true;
  }
}
