/**
 * The REST surface in process: parses a method, path and body, dispatches through the route table and
 * turns every outcome, even a bug, into an HTTP-style response. It never throws for bad input.
 */
import { reject } from '../domain/rejection.js';
import type { RequestCommand } from '../model/commands.js';
import type { ApiContract } from './apiContract.js';
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

const API_PREFIX = '/api/v2';
const routers = new WeakMap<ApiContract, SchemaRouter>();

/**
 * Handles one request against `target`: routes it over the route table and `contract` (an operation
 * of the schema without a route is 501), checks the key, then the body against the contract, and
 * only then lets the route's handler decide.
 */
export function handleRequest(
  target: RequestTarget,
  contract: ApiContract,
  method: string,
  path: string,
  body: unknown,
  options: RequestOptions = {},
): ApiResponse {
  const response = dispatch(target, contract, method, path, body, options);
  if (response.status < 400) return response;
  const requestId = options.requestId ?? target.nextRequestId();
  return {
    ...response,
    body: asServiceError(response.body, requestId, target.profile.errorCodes),
  };
}

/** The answer of the route, or the refusal, before error bodies take the service's form. */
function dispatch(
  target: RequestTarget,
  contract: ApiContract,
  method: string,
  path: string,
  body: unknown,
  options: RequestOptions,
): ApiResponse {
  if (typeof method !== 'string' || typeof path !== 'string') {
    return errorResponse(reject('invalid_input', 'method and path must be strings'));
  }
  const { pathname, query } = splitPath(path);
  let router = routers.get(contract);
  if (router === undefined) {
    router = new SchemaRouter(ROUTES, contract);
    routers.set(contract, router);
  }
  const match = router.match(method.toUpperCase(), pathname);
  if (!match.ok) return match.error;
  const { route, params } = match.value;
  const keys = keyRingOf(target.apiKeys, target.state);
  const wait = target.admit?.(callerOf(target, options.apiKey), `${route.method} ${route.pattern}`);
  if (wait !== undefined) {
    const limited = errorResponse(
      reject('rate_limited', `too many requests: retry after ${wait} s`),
    );
    return { ...limited, headers: { 'retry-after': String(wait) } };
  }
  const denied = keyProblem(
    keys,
    options.apiKey,
    route.method,
    route.pattern,
    params['project_id'],
  );
  if (denied !== undefined) return errorResponse(denied);
  const bodyProblem =
    route.method === 'GET' ? undefined : contract.bodyProblem(route.method, route.pattern, body);
  if (bodyProblem !== undefined) return errorResponse(reject('invalid_input', bodyProblem));
  const key = options.apiKey === undefined ? undefined : keys.find(options.apiKey);
  const onlyProject = key?.kind === 'project' ? key.projectId : undefined;
  try {
    return route.handle({
      params,
      query,
      body,
      target: route.method === 'GET' ? target : issuedBy(target, route),
      ...(onlyProject === undefined ? {} : { onlyProject }),
    });
  } catch (error) {
    return {
      status: 500,
      body: {
        code: 'internal_error',
        message: `the simulator failed on ${method} ${pathname}: ${error instanceof Error ? error.message : String(error)}`,
      },
    };
  }
}

/** Who a rate limit counts a request against: its API key when the simulation knows it. */
function callerOf(target: RequestTarget, apiKey: string | undefined): string {
  return apiKey !== undefined && target.apiKeys.has(apiKey) ? `key ${apiKey}` : 'anonymous';
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

  nextRequestId(): string {
    return this.target.nextRequestId();
  }

  get postgresFront(): RequestTarget['postgresFront'] {
    return this.target.postgresFront;
  }
}

function splitPath(path: string): { pathname: string; query: URLSearchParams } {
  const at = path.indexOf('?');
  let pathname = at === -1 ? path : path.slice(0, at);
  const query = new URLSearchParams(at === -1 ? '' : path.slice(at + 1));
  if (pathname.startsWith(API_PREFIX)) pathname = pathname.slice(API_PREFIX.length);
  return { pathname, query };
}
