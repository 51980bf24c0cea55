/**
 * The one way a request goes through the API, whoever sends it (`sim.request` in process, `serve`
 * over a socket, the testing toolkit's client edge): the path taken apart, routed over the route
 * table, the routes a server adds and the public schema, counted against the rate limits, the key
 * checked, the body validated, the route's handler called, and every outcome, even a bug, turned
 * into an answer with the service's error body. It never throws for bad input.
 */
import type { ErrorCodes } from '../domain/profile.js';
import { reject } from '../domain/rejection.js';
import type { Result } from '../core/result.js';
import type { RequestCommand } from '../model/commands.js';
import type { ApiContract } from '../schema/apiContract.js';
import { publicContract } from '../schema/publicSchema.js';
import { API_PREFIX, apiPath } from './apiPrefix.js';
import { keyProblem, keyRingOf } from './apiKey.js';
import { asServiceError, errorResponse, type ApiResponse } from './apiResponse.js';
import type { RequestTarget } from './requestTarget.js';
import type { Route } from './route.js';
import { ROUTES } from './routeTable.js';
import { SchemaRouter } from './schemaRouter.js';

/** Per-request options of `sim.request`. */
export interface RequestOptions {
  /**
   * Echoed as `request_id` in error bodies, like the `X-Request-ID` header; without it, an error
   * gets a generated one (as the real service does).
   */
  readonly requestId?: string;
  /** API key (the `Bearer` value); checked only when the simulation has keys (`sim.addApiKey`). */
  readonly apiKey?: string;
}

/** One request: a method, a path (with or without `/api/v2`, query allowed), a body, its options. */
export interface ApiRequest extends RequestOptions {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
}

/**
 * A route a server serves beside the REST table (its control routes): who may call it, how its body
 * is read, and its handler, which may take time (a clock move). Its errors keep computesim's codes.
 */
export interface AddedRoute<A extends ApiResponse = ApiResponse, C = unknown> {
  readonly method: string;
  readonly pattern: string;
  /** The answer refusing a request with `apiKey`, or `undefined` to let it through. */
  access(apiKey: string | undefined): A | undefined;
  /** The body as the handler takes it, or the answer refusing it (a 400). */
  parse(body: unknown): Result<unknown, A>;
  /** Answers; `context` is the one the adapter passed with the request (its connection). */
  handle(params: Readonly<Record<string, string>>, body: unknown, context: C): A | Promise<A>;
}

/** The route a request matched, as an adapter sees it before the request goes further. */
export interface MatchedRoute {
  readonly method: string;
  readonly pattern: string;
  readonly params: Readonly<Record<string, string>>;
}

/** What an adapter adds to the pipeline; every field is optional. */
export interface PipelineHooks<A extends ApiResponse = ApiResponse, C = unknown> {
  /** Routes served beside the REST table (a server's control routes). */
  readonly addedRoutes?: readonly AddedRoute<A, C>[];
  /** What the added routes' handlers are given with the request (the connection it came on). */
  readonly context?: C;
  /** Answer only paths under `/api/v2` (a server); in process the prefix may be left out. */
  readonly prefixOnly?: boolean;
  /** Counts a request against rate limits instead of the simulation's own (a server's, on the wall). */
  readonly admit?: (caller: string, route: string) => number | undefined;
  /** Who a request without a known key counts against (default `anonymous`). */
  readonly anonymousCaller?: string;
  /**
   * Sees every request once it is routed (`matched` undefined: no route did) and may answer it
   * instead (a fault a test injects, a server's own not-found). Called before anything else is
   * checked.
   */
  readonly intercept?: (
    matched: MatchedRoute | undefined,
    request: { readonly method: string; readonly pathname: string },
  ) => A | undefined;
  /**
   * The answer for an error a handler threw that the target does not answer itself (default: a 500
   * naming the request).
   */
  readonly failure?: (error: unknown, method: string, pathname: string) => A;
  /** How error bodies name their code for a path (default: the profile's `errorCodes`). */
  readonly codesFor?: (pathname: string) => ErrorCodes;
}

/** Routers by contract and table of added routes: made once, shared by every simulation. */
const routers = new WeakMap<
  ApiContract,
  WeakMap<readonly AnyAddedRoute[], SchemaRouter<AnyAddedRoute>>
>();
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyAddedRoute = AddedRoute<any, any>;
const NO_ADDED_ROUTES: readonly AnyAddedRoute[] = [];

/**
 * Answers `request` against `target`. The answer comes in this turn unless an added route's handler
 * takes time; REST routes always answer in this turn.
 */
export function answerRequest<A extends ApiResponse = ApiResponse, C = unknown>(
  target: RequestTarget,
  request: ApiRequest,
  hooks: PipelineHooks<A, C> = {},
  contract: ApiContract = publicContract(),
): ApiResponse | A | Promise<ApiResponse | A> {
  const { method, path } = request;
  if (typeof method !== 'string' || typeof path !== 'string')
    return inServiceForm(
      target,
      request,
      hooks,
      '',
      errorResponse(reject('invalid_input', 'method and path must be strings')),
    );
  const { pathname, query, prefixed } = apiPath(path);
  const answered = (answer: ApiResponse | A | Promise<ApiResponse | A>) =>
    answer instanceof Promise
      ? answer.then((settled) => inServiceForm(target, request, hooks, pathname, settled))
      : inServiceForm(target, request, hooks, pathname, answer);
  if (hooks.prefixOnly === true && !prefixed)
    return answered(
      errorResponse(
        reject(
          'not_found',
          `no route for ${method.toUpperCase()} ${pathname} (the API is under ${API_PREFIX})`,
        ),
      ),
    );
  const malformed = malformedSegment(pathname);
  if (malformed !== undefined)
    return answered(
      errorResponse(
        reject('invalid_input', `the path segment "${malformed}" is not valid percent-encoding`),
      ),
    );
  return answered(routed(target, request, hooks, contract, method.toUpperCase(), pathname, query));
}

/** The steps after the path: route, intercept, rate limit, key, body, handler. */
function routed<A extends ApiResponse, C>(
  target: RequestTarget,
  request: ApiRequest,
  hooks: PipelineHooks<A, C>,
  contract: ApiContract,
  method: string,
  pathname: string,
  query: URLSearchParams,
): ApiResponse | A | Promise<ApiResponse | A> {
  const match = (routerOf(contract, hooks.addedRoutes) as SchemaRouter<AddedRoute<A, C>>).match(
    method,
    pathname,
  );
  const pattern = match.ok ? (match.value.route ?? match.value.added).pattern : match.error.pattern;
  const intercepted = hooks.intercept?.(
    match.ok ? { method, pattern: pattern as string, params: match.value.params } : undefined,
    { method, pathname },
  );
  if (intercepted !== undefined) return intercepted;
  const { apiKey } = request;
  const keys = keyRingOf(target.apiKeys, target.state);
  const known = apiKey === undefined ? undefined : keys.find(apiKey);
  const caller = known === undefined ? (hooks.anonymousCaller ?? 'anonymous') : `key ${apiKey}`;
  // The simulation's own limits are the public API's: a server's added routes meet only its own.
  const addedRoute = match.ok && match.value.added !== undefined;
  const admit = hooks.admit ?? (addedRoute ? undefined : target.admit?.bind(target));
  // Unmatched paths of a method count together, so made-up paths cost the limiter no memory.
  const wait = admit?.(caller, `${method} ${pattern ?? '?'}`);
  if (wait !== undefined) {
    const limited = errorResponse(
      reject('rate_limited', `too many requests: retry after ${wait} s`),
    );
    return { ...limited, headers: { 'retry-after': String(wait) } };
  }
  if (!match.ok) return match.error.answer;
  const { route, added, params } = match.value;
  try {
    if (added !== undefined) {
      const denied = added.access(apiKey);
      if (denied !== undefined) return denied;
      const body = added.parse(request.body);
      if (!body.ok) return body.error;
      const handled = added.handle(params, body.value, hooks.context as C);
      return handled instanceof Promise
        ? handled.catch((error: unknown) => failed(target, hooks, error, method, pathname))
        : handled;
    }
    const denied = keyProblem(keys, apiKey, route.method, route.pattern, params['project_id']);
    if (denied !== undefined) return errorResponse(denied);
    const problem =
      route.method === 'GET'
        ? undefined
        : contract.bodyProblem(route.method, route.pattern, request.body);
    if (problem !== undefined) return errorResponse(reject('invalid_input', problem));
    const onlyProject = known?.kind === 'project' ? known.projectId : undefined;
    return route.handle({
      params,
      query,
      body: request.body,
      target: route.method === 'GET' ? target : issuedBy(target, route),
      ...(onlyProject === undefined ? {} : { onlyProject }),
    });
  } catch (error) {
    return failed(target, hooks, error, method, pathname);
  }
}

/**
 * The answer for an error a handler threw: the target's when the error is not a bug (the run cannot
 * go on as asked: every adapter answers those alike), else the adapter's, else a 500 naming the
 * request.
 */
function failed<A extends ApiResponse, C>(
  target: RequestTarget,
  hooks: PipelineHooks<A, C>,
  error: unknown,
  method: string,
  pathname: string,
): ApiResponse | A {
  const known = target.answerFor?.(error);
  if (known !== undefined) return known;
  if (hooks.failure !== undefined) return hooks.failure(error, method, pathname);
  return {
    status: 500,
    body: {
      code: 'internal_error',
      message: `the simulator failed on ${method} ${pathname}: ${error instanceof Error ? error.message : String(error)}`,
    },
  };
}

/** An error answer as the service sends it: its request id, and the code the profile asks for. */
function inServiceForm<A extends ApiResponse, C>(
  target: RequestTarget,
  request: ApiRequest,
  hooks: PipelineHooks<A, C>,
  pathname: string,
  answer: ApiResponse | A,
): ApiResponse | A {
  if (answer.status < 400) return answer;
  // An answer that names its request already (one a test injected) keeps it; no id is drawn for it.
  const named = (answer.body as { request_id?: unknown } | undefined)?.request_id;
  const requestId =
    typeof named === 'string' ? named : (request.requestId ?? target.nextRequestId());
  const codes = hooks.codesFor?.(pathname) ?? target.profile.errorCodes;
  return { ...answer, body: asServiceError(answer.body, requestId, codes) };
}

function routerOf(
  contract: ApiContract,
  added: readonly AnyAddedRoute[] = NO_ADDED_ROUTES,
): SchemaRouter<AnyAddedRoute> {
  let byTable = routers.get(contract);
  if (byTable === undefined) routers.set(contract, (byTable = new WeakMap()));
  let router = byTable.get(added);
  if (router === undefined)
    byTable.set(added, (router = new SchemaRouter(ROUTES, contract, added)));
  return router;
}

/** The first segment of `pathname` that does not percent-decode, if any. */
function malformedSegment(pathname: string): string | undefined {
  if (!pathname.includes('%')) return undefined;
  for (const segment of pathname.split('/')) {
    try {
      decodeURIComponent(segment);
    } catch {
      return segment;
    }
  }
  return undefined;
}

/**
 * `target`, with every command it executes marked as issued by this request (its method and route
 * pattern), so a refusal with 423 records which request was turned away.
 */
function issuedBy(target: RequestTarget, route: Route): RequestTarget {
  return new IssuedTarget(target, { method: route.method, route: route.pattern });
}

/** A class rather than an object literal per request: no getter or closure is built per call. */
class IssuedTarget implements RequestTarget {
  constructor(
    readonly target: RequestTarget,
    readonly request: { readonly method: string; readonly route: string },
  ) {}

  get state(): RequestTarget['state'] {
    return this.target.state;
  }

  get profile(): RequestTarget['profile'] {
    return this.target.profile;
  }

  get apiKeys(): RequestTarget['apiKeys'] {
    return this.target.apiKeys;
  }

  execute(command: Parameters<RequestTarget['execute']>[0]): ReturnType<RequestTarget['execute']> {
    return this.target.execute({ ...command, request: this.request } as RequestCommand);
  }

  get now(): number {
    return this.target.now;
  }

  get start(): number {
    return this.target.start;
  }

  stateAt(t: number): RequestTarget['state'] {
    return this.target.stateAt(t);
  }

  get keepsHistory(): boolean {
    return this.target.keepsHistory;
  }

  nextRequestId(): string {
    return this.target.nextRequestId();
  }

  get postgresFront(): RequestTarget['postgresFront'] {
    return this.target.postgresFront;
  }
}
