/**
 * Request faults injected at the client's edge: bursts of 423 (a resource is locked) on mutating
 * requests and 429s (rate limited, with `Retry-After`), overall or per route. Decisions are drawn in
 * request order from the seed, so the same client under the same seed meets the same faults.
 */
import { RandomSource } from '../core/randomSource.js';

/** 423 bursts: a mutating request starts a burst with probability `rate`; `burst` is its length. */
export interface LockedFaults {
  readonly rate: number;
  /** How many mutating requests of the project a burst refuses, drawn in [min, max]. Default [1, 3]. */
  readonly burst?: readonly [min: number, max: number];
}

/** 429s: any request is refused with probability `rate`, with `Retry-After: retryAfterSeconds`. */
export interface RateLimitedFaults {
  readonly rate: number;
  /** Default 1. */
  readonly retryAfterSeconds?: number;
}

/** Request faults, for every route or per route. */
export interface RequestFaults {
  readonly locked?: LockedFaults;
  readonly rateLimited?: RateLimitedFaults;
  /**
   * Per route, keyed `METHOD /pattern` as in the route table (`POST /projects/{project_id}/branches`);
   * a route listed here uses only its own settings.
   */
  readonly routes?: Readonly<
    Record<string, { readonly locked?: LockedFaults; readonly rateLimited?: RateLimitedFaults }>
  >;
}

/** What the injector decided for one request. */
export type InjectedFault =
  | { readonly kind: 'locked' }
  | { readonly kind: 'rate_limited'; readonly retryAfterSeconds: number };

/** What is wrong with request faults, or undefined. */
export function requestFaultsProblem(faults: RequestFaults): string | undefined {
  const check = (where: string, part: { locked?: unknown; rateLimited?: unknown }) => {
    const locked = part.locked as LockedFaults | undefined;
    if (locked !== undefined) {
      if (!isRate(locked.rate)) return `${where}locked.rate must be in 0..1`;
      const burst = locked.burst;
      if (
        burst !== undefined &&
        !(
          Array.isArray(burst) &&
          burst.length === 2 &&
          burst.every((n) => Number.isSafeInteger(n) && n >= 1) &&
          burst[0] <= burst[1]
        )
      )
        return `${where}locked.burst must be [min, max] with 1 ≤ min ≤ max`;
    }
    const limited = part.rateLimited as RateLimitedFaults | undefined;
    if (limited !== undefined) {
      if (!isRate(limited.rate)) return `${where}rateLimited.rate must be in 0..1`;
      const after = limited.retryAfterSeconds;
      if (after !== undefined && !(Number.isSafeInteger(after) && after >= 0))
        return `${where}rateLimited.retryAfterSeconds must be whole seconds ≥ 0`;
    }
    return undefined;
  };
  const overall = check('', faults);
  if (overall !== undefined) return overall;
  for (const [route, part] of Object.entries(faults.routes ?? {})) {
    if (!/^(GET|POST|PATCH|DELETE) \/\S*$/.test(route))
      return `routes: "${route}" must be "METHOD /pattern", e.g. "POST /projects/{project_id}/branches"`;
    const problem = check(`routes["${route}"].`, part);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** Decides, request after request, which ones meet an injected fault. */
export class RequestFaultInjector {
  readonly #faults: RequestFaults;
  readonly #random: RandomSource;
  /** Mutating requests still to refuse, per project, in the burst under way. */
  readonly #bursts = new Map<string, number>();

  constructor(faults: RequestFaults, seed: number) {
    this.#faults = faults;
    this.#random = RandomSource.derive(seed, 'request-faults', 0);
  }

  /** The fault for the next request (undefined: let it through to the simulation). */
  next(request: {
    readonly method: string;
    readonly route?: string;
    readonly projectId?: string;
  }): InjectedFault | undefined {
    const key = request.route === undefined ? undefined : `${request.method} ${request.route}`;
    const own = key === undefined ? undefined : this.#faults.routes?.[key];
    const settings = own ?? (key === undefined ? {} : this.#faults);
    const limited = settings.rateLimited;
    if (limited !== undefined && this.#random.chance(limited.rate))
      return { kind: 'rate_limited', retryAfterSeconds: limited.retryAfterSeconds ?? 1 };
    if (request.method === 'GET' || request.projectId === undefined) return undefined;
    const remaining = this.#bursts.get(request.projectId) ?? 0;
    if (remaining > 0) {
      this.#bursts.set(request.projectId, remaining - 1);
      return { kind: 'locked' };
    }
    const locked = settings.locked;
    if (locked === undefined || !this.#random.chance(locked.rate)) return undefined;
    const [min, max] = locked.burst ?? [1, 3];
    this.#bursts.set(request.projectId, this.#random.int(min, max) - 1);
    return { kind: 'locked' };
  }
}

function isRate(value: unknown): boolean {
  return typeof value === 'number' && value >= 0 && value <= 1;
}
