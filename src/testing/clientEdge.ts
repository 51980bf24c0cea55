/**
 * The client's edge of the simulation: every request of the client passes here, meets the injected
 * request faults, reaches `sim.request` and is recorded with its answer in virtual time.
 */
import { asServiceError, errorResponse } from '../api/apiResponse.js';
import { ROUTES } from '../api/routeTable.js';
import { Router } from '../api/router.js';
import { LOCKED_MESSAGE, reject, type Rejection } from '../domain/rejection.js';
import type { Simulation } from '../simulation/simulation.js';
import type { RecordedConnection, RecordedRequest } from './clientRecord.js';
import { RequestFaultInjector, type RequestFaults } from './requestFaults.js';
import type { Connection } from '../simulation/connection.js';

/** An answer as the transport sees it: status, JSON body (undefined for 204) and extra headers. */
export interface EdgeResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

const API_PREFIX = '/api/v2';
const router = new Router(ROUTES);

/** Requests and connections of one client against one simulation, recorded. */
export class ClientEdge {
  readonly requests: RecordedRequest[] = [];
  readonly connections: RecordedConnection[] = [];
  readonly #sim: Simulation;
  readonly #injector: RequestFaultInjector | undefined;

  constructor(sim: Simulation, requestFaults?: RequestFaults) {
    this.#sim = sim;
    this.#injector =
      requestFaults === undefined ? undefined : new RequestFaultInjector(requestFaults, sim.seed);
  }

  /** One request (path relative to `/api/v2`, or starting with it; query allowed). */
  send(method: string, path: string, body?: unknown, apiKey?: string): EdgeResponse {
    const upper = method.toUpperCase();
    const queryAt = path.indexOf('?');
    let pathname = queryAt === -1 ? path : path.slice(0, queryAt);
    const query = queryAt === -1 ? '' : path.slice(queryAt + 1);
    if (pathname.startsWith(API_PREFIX)) pathname = pathname.slice(API_PREFIX.length);
    const match = router.match(upper, pathname);
    const route = match.ok ? match.value.route.pattern : undefined;
    const projectId = match.ok ? match.value.params['project_id'] : undefined;
    const fault = this.#injector?.next({
      method: upper,
      ...(route === undefined ? {} : { route }),
      ...(projectId === undefined ? {} : { projectId }),
    });
    let response: EdgeResponse;
    if (fault?.kind === 'rate_limited') {
      const answer = this.#injected(
        reject('rate_limited', 'too many requests', 'injected by the fault profile'),
      );
      response = {
        ...answer,
        headers: { 'retry-after': String(fault.retryAfterSeconds) },
      };
    } else if (fault?.kind === 'locked') {
      const answer = this.#injected(
        reject('locked', LOCKED_MESSAGE, 'injected by the fault profile'),
      );
      response = { ...answer, headers: {} };
    } else {
      const answer = this.#sim.request(
        upper,
        query === '' ? pathname : `${pathname}?${query}`,
        body,
        apiKey === undefined ? {} : { apiKey },
      );
      // The simulation's own headers too: `retry-after` on a 429 of its rate limits.
      response = { status: answer.status, body: answer.body, headers: { ...answer.headers } };
    }
    this.requests.push({
      index: this.requests.length,
      at: this.#sim.now(),
      method: upper,
      path: pathname,
      query,
      ...(route === undefined ? {} : { route }),
      ...(projectId === undefined ? {} : { projectId }),
      ...(body === undefined ? {} : { body: copyOf(body) }),
      status: response.status,
      response: response.body,
      ...(fault === undefined ? {} : { injected: fault.kind }),
      ...(fault?.kind === 'rate_limited'
        ? { retryAfterSeconds: fault.retryAfterSeconds }
        : response.status === 429 && response.headers['retry-after'] !== undefined
          ? { retryAfterSeconds: Number(response.headers['retry-after']) }
          : {}),
    });
    return response;
  }

  /** The answer of an injected refusal, in the form the simulation answers its own errors. */
  #injected(rejection: Rejection): { readonly status: number; readonly body: unknown } {
    const answer = errorResponse(rejection);
    const requestId = `injected-${this.requests.length}`;
    return {
      status: answer.status,
      body: asServiceError(answer.body, requestId, this.#sim.profile.errorCodes),
    };
  }

  /** Connects to a compute for `purpose` and records it with the compute's type at that moment. */
  connect(endpointId: string, purpose: 'read' | 'write', pooled = false): Connection {
    const owner = this.#sim.state.endpointOwners[endpointId];
    const endpointType =
      owner === undefined
        ? undefined
        : this.#sim.state.projects[owner]?.endpoints[endpointId]?.type;
    this.connections.push({
      index: this.connections.length,
      at: this.#sim.now(),
      endpointId,
      purpose,
      ...(endpointType === undefined ? {} : { endpointType }),
    });
    return this.#sim.connect(endpointId, { pooled });
  }
}

/** A copy of a request body that later changes by the client cannot alter. */
function copyOf(body: unknown): unknown {
  try {
    return structuredClone(body);
  } catch {
    return String(body);
  }
}
