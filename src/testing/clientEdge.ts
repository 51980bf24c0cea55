/**
 * The client's edge of the simulation: every request of the client passes here, meets the injected
 * request faults, reaches `sim.request` and is recorded with its answer in virtual time.
 */
import { apiPath } from '../api/apiPrefix.js';
import { asServiceError, errorResponse, type ApiResponse } from '../api/apiResponse.js';
import type { MatchedRoute } from '../api/requestPipeline.js';
import { LOCKED_MESSAGE, reject, type Rejection } from '../domain/rejection.js';
import type { Simulation } from '../simulation/simulation.js';
import type { RecordedConnection, RecordedRequest, RecordedStatement } from './clientRecord.js';
import { RequestFaultInjector, type RequestFaults } from './requestFaults.js';
import type { Connection, StatementResult } from '../simulation/connection.js';

/** An answer as the transport sees it: status, JSON body (undefined for 204) and extra headers. */
export interface EdgeResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

/** Requests and connections of one client against one simulation, recorded. */
export class ClientEdge {
  readonly requests: RecordedRequest[] = [];
  readonly connections: RecordedConnection[] = [];
  readonly statements: RecordedStatement[] = [];
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
    const { pathname, search } = apiPath(path);
    let matched: MatchedRoute | undefined;
    let fault: ReturnType<RequestFaultInjector['next']>;
    const answer = this.#sim.answer(
      { method: upper, path, body, ...(apiKey === undefined ? {} : { apiKey }) },
      {
        intercept: (route) => {
          matched = route;
          fault = this.#injector?.next({
            method: upper,
            path,
            ...(route === undefined
              ? {}
              : { route: route.pattern, projectId: route.params['project_id'] }),
          });
          return fault === undefined ? undefined : this.#injected(fault);
        },
      },
    ) as ApiResponse;
    // The simulation's own headers too: `retry-after` on a 429 of its rate limits.
    const response: EdgeResponse = {
      status: answer.status,
      body: answer.body,
      headers: { ...answer.headers },
    };
    this.#injector?.answered(upper, path, response);
    const route = matched?.pattern;
    const projectId = matched?.params['project_id'];
    const retryAfter = response.headers['retry-after'];
    this.requests.push({
      index: this.requests.length,
      at: this.#sim.now(),
      method: upper,
      path: pathname,
      query: search,
      ...(route === undefined ? {} : { route }),
      ...(projectId === undefined ? {} : { projectId }),
      ...(body === undefined ? {} : { body: copyOf(body) }),
      status: response.status,
      response: response.body,
      ...(fault === undefined ? {} : { injected: fault.kind }),
      ...(retryAfter !== undefined && Number.isFinite(Number(retryAfter))
        ? { retryAfterSeconds: Number(retryAfter) }
        : {}),
    });
    return response;
  }

  /** The answer of a fault the profile injects, in the form the simulation answers its own errors. */
  #injected(fault: NonNullable<ReturnType<RequestFaultInjector['next']>>): ApiResponse {
    if (fault.kind === 'rate_limited')
      return {
        ...this.#refusal(
          reject('rate_limited', 'too many requests', 'injected by the fault profile'),
        ),
        headers: { 'retry-after': String(fault.retryAfterSeconds) },
      };
    if (fault.kind === 'unavailable') {
      const requestId = `injected-${this.requests.length}`;
      return {
        status: 503,
        body: asServiceError(
          { code: 'service_unavailable', message: 'service unavailable', request_id: requestId },
          requestId,
          this.#sim.profile.errorCodes,
        ),
        ...(fault.retryAfterSeconds === undefined
          ? {}
          : { headers: { 'retry-after': String(fault.retryAfterSeconds) } }),
      };
    }
    return this.#refusal(reject('locked', LOCKED_MESSAGE, 'injected by the fault profile'));
  }

  /** The answer of an injected refusal, with its own request id. */
  #refusal(rejection: Rejection): ApiResponse {
    const answer = errorResponse(rejection);
    const requestId = `injected-${this.requests.length}`;
    return {
      status: answer.status,
      body: asServiceError(answer.body, requestId, this.#sim.profile.errorCodes),
    };
  }

  /**
   * Connects to a compute for `purpose` and records it with the compute's type at that moment;
   * the statements the client runs on it are recorded too.
   */
  connect(endpointId: string, purpose: 'read' | 'write', pooled = false): Connection {
    const owner = this.#sim.state.endpointOwners[endpointId];
    const endpointType =
      owner === undefined
        ? undefined
        : this.#sim.state.projects[owner]?.endpoints[endpointId]?.type;
    const connectionIndex = this.connections.length;
    this.connections.push({
      index: connectionIndex,
      at: this.#sim.now(),
      endpointId,
      purpose,
      ...(endpointType === undefined ? {} : { endpointType }),
    });
    const connection = this.#sim.connect(endpointId, { pooled });
    const recorded =
      (kind: RecordedStatement['kind'], run: () => StatementResult) => (): StatementResult => {
        const connectionState = connection.state;
        const result = run();
        this.statements.push({
          index: this.statements.length,
          at: this.#sim.now(),
          connectionIndex,
          kind,
          connectionState,
          ...(result.ok
            ? {}
            : { refused: { sqlstate: result.error.sqlstate, message: result.error.message } }),
        });
        return result;
      };
    const query = connection.query.bind(connection);
    connection.query = (duration) => recorded('query', () => query(duration))();
    const begin = connection.begin.bind(connection);
    connection.begin = recorded('begin', begin);
    const commit = connection.commit.bind(connection);
    connection.commit = recorded('commit', commit);
    const rollback = connection.rollback.bind(connection);
    connection.rollback = recorded('rollback', rollback);
    return connection;
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
