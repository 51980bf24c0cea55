/**
 * The careful way to talk to the control plane, as the small library an application keeps beside
 * its code: requests retried with backoff when the answer refuses for now, operations polled every
 * 5 s until they end, SQL statements run on a connection that is open, all under a deadline. The
 * careful clients of the corpus use it as it is; each faulty client uses it too, but for the one
 * thing it gets wrong, which it brings itself (a retry policy of its own, a polling interval, a
 * wait loop of its own), as the code that has a bug usually does.
 */
import type { ClientContext } from '../../../src/testing/index.js';

/** An operation record, as the API returns it. */
export interface Operation {
  readonly id: string;
  readonly project_id: string;
  readonly action: string;
  readonly status: string;
}

/** A compute record, the fields the clients read. */
export interface Endpoint {
  readonly id: string;
  readonly branch_id: string;
  readonly type: 'read_write' | 'read_only';
  readonly current_state: string;
}

/** A connection handed out by `ctx.connect`. */
export type Connection = ReturnType<ClientContext['connect']>;

/** The spec's polling interval. */
export const POLL_MS = 5_000;
/** Attempts of one request, the first wait and its growth: 1 s, 2 s, 4 s… (about 2 minutes). */
export const RETRY = { attempts: 8, firstDelayMs: 1_000 } as const;

/** A final answer that is not a success (or a refusal for now past the retry budget). */
export class ApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`${method} ${path}: ${status} ${messageOf(body)}`);
    this.name = 'ApiError';
  }
}

/** Operations handed to the client that ended in `error` or `cancelled`. */
export class OperationFailed extends Error {
  constructor(readonly operations: readonly Operation[]) {
    super(`operations ended badly: ${operations.map((o) => `${o.action} ${o.status}`).join(', ')}`);
    this.name = 'OperationFailed';
  }
}

/** A SQL connection or statement refused or cut (the SQLSTATE). */
export class SqlFailed extends Error {
  constructor(readonly sqlstate: string) {
    super(`SQL ${sqlstate}`);
    this.name = 'SqlFailed';
  }
}

/** The job's deadline passed. */
export class DeadlineExceeded extends Error {
  constructor(what: string) {
    super(`deadline passed while ${what}`);
    this.name = 'DeadlineExceeded';
  }
}

/** Whether an answer refuses for now: locked, branch not ready, rate limited, a 5xx. */
export function refusesForNow(status: number, body: unknown): boolean {
  if (status === 422) return messageOf(body).includes('not ready');
  return status === 423 || status === 429 || (status >= 500 && status <= 599);
}

/** Whether `error` is the API's 404 (the thing is gone). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** Sleeps `ms` of virtual time, unless that would pass `deadline`. */
export async function pause(
  ctx: ClientContext,
  ms: number,
  deadline: number,
  what: string,
): Promise<void> {
  if (ctx.now() + ms > deadline) throw new DeadlineExceeded(what);
  await ctx.sleep(ms);
}

/** One answer of the API, its body parsed. */
export async function send(
  ctx: ClientContext,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown; retryAfterMs: number }> {
  const response = await ctx.fetch(`${ctx.baseURL}${path}`, {
    method,
    headers: { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const retryAfter = Number(response.headers.get('retry-after') ?? 0);
  return {
    status: response.status,
    body: text === '' ? {} : (JSON.parse(text) as unknown),
    retryAfterMs: Number.isFinite(retryAfter) ? retryAfter * 1_000 : 0,
  };
}

/** An answer that was not a success, as a retry policy sees it. */
export interface Refusal {
  readonly status: number;
  readonly body: unknown;
  /** `Retry-After`, ms (0 when the answer had none). */
  readonly retryAfterMs: number;
}

/**
 * How long to wait before asking again after `refusal`, the `attempt`-th answer of one request
 * (from 1), or undefined to give up and throw.
 */
export type RetryPolicy = (refusal: Refusal, attempt: number) => number | undefined;

/** The careful policy: what refuses for now, 8 attempts, 1 s doubling, at least `Retry-After`. */
export const backoff: RetryPolicy = (refusal, attempt) =>
  refusesForNow(refusal.status, refusal.body) && attempt < RETRY.attempts
    ? Math.max(RETRY.firstDelayMs * 2 ** (attempt - 1), refusal.retryAfterMs)
    : undefined;

/** Options of `neonApi`. */
export interface ApiOptions {
  /** Virtual time (epoch ms) past which the job gives up. */
  readonly deadline: number;
  /** Default `backoff`. */
  readonly retry?: RetryPolicy;
  /** How often an operation is polled, ms. Default 5 s, the spec's interval. */
  readonly pollMs?: number;
}

/** The application's API helpers, bound to a context, a deadline and a retry policy. */
export interface NeonApi {
  /** A request, asked again as the policy says while refused; a final refusal throws `ApiError`. */
  request<T>(method: string, path: string, body?: unknown): Promise<T>;
  /**
   * Polls each operation every `pollMs` until it ends (`failed` is not an end: the control plane
   * retries it). Returns those that ended in `error` or `cancelled`; each is seen to its end, so
   * that the next change of the project comes after all of them.
   */
  waitFor(operations: readonly Operation[] | undefined): Promise<Operation[]>;
  /** `waitFor`, throwing `OperationFailed` when one ended badly. */
  settle(operations: readonly Operation[] | undefined): Promise<void>;
  /**
   * A change whose operations must finish: sent, waited for, and sent again (the same request, as
   * a careful client does) when an operation ended badly, up to `tries` times.
   */
  change<T extends { operations?: readonly Operation[] }>(
    method: string,
    path: string,
    body?: unknown,
    tries?: number,
  ): Promise<T>;
  /** Sleeps `ms`, unless that would pass the deadline. */
  pause(ms: number, what: string): Promise<void>;
  /** The `read_write` compute of a branch, from its project's list; undefined when it has none. */
  primaryOf(projectId: string, branchId: string): Promise<Endpoint | undefined>;
}

/** The helpers over `ctx`. */
export function neonApi(ctx: ClientContext, options: ApiOptions): NeonApi {
  const retry = options.retry ?? backoff;
  const pollMs = options.pollMs ?? POLL_MS;
  const pauseFor = (ms: number, what: string) => pause(ctx, ms, options.deadline, what);
  const api: NeonApi = {
    async request<T>(method: string, path: string, body?: unknown): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        const answer = await send(ctx, method, path, body);
        if (answer.status >= 200 && answer.status < 300) return answer.body as T;
        const wait = retry(answer, attempt);
        if (wait === undefined) throw new ApiError(method, path, answer.status, answer.body);
        await pauseFor(wait, `retrying ${method} ${path}`);
      }
    },
    async waitFor(operations) {
      const failed: Operation[] = [];
      for (const { id, project_id } of operations ?? [])
        for (;;) {
          const { operation } = await api.request<{ operation: Operation }>(
            'GET',
            `/projects/${project_id}/operations/${id}`,
          );
          if (operation.status === 'finished' || operation.status === 'skipped') break;
          if (operation.status === 'error' || operation.status === 'cancelled') {
            failed.push(operation);
            break;
          }
          await pauseFor(pollMs, `waiting for ${operation.action}`);
        }
      return failed;
    },
    async settle(operations) {
      const failed = await api.waitFor(operations);
      if (failed.length > 0) throw new OperationFailed(failed);
    },
    async change<T extends { operations?: readonly Operation[] }>(
      method: string,
      path: string,
      body?: unknown,
      tries = 3,
    ): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        const answer = await api.request<T>(method, path, body);
        const failed = await api.waitFor(answer.operations);
        if (failed.length === 0) return answer;
        if (attempt === tries) throw new OperationFailed(failed);
      }
    },
    pause: pauseFor,
    async primaryOf(projectId, branchId) {
      const { endpoints } = await api.request<{ endpoints: Endpoint[] }>(
        'GET',
        `/projects/${projectId}/endpoints`,
      );
      return endpoints.find((e) => e.branch_id === branchId && e.type === 'read_write');
    },
  };
  return api;
}

/**
 * Restarts the primary of `branchId` and waits for it (`api.change`); its id, or undefined when
 * the branch has none or it was deleted meanwhile (a 404 on the way).
 */
export async function restartPrimary(
  api: NeonApi,
  projectId: string,
  branchId: string,
): Promise<string | undefined> {
  const primary = await api.primaryOf(projectId, branchId);
  if (primary === undefined) return undefined;
  try {
    await api.change('POST', `/projects/${projectId}/endpoints/${primary.id}/restart`);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  return primary.id;
}

/** A connection that is open (it waits while the compute starts), or `SqlFailed`. */
export async function openConnection(
  ctx: ClientContext,
  endpointId: string,
  purpose: 'read' | 'write',
  deadline: number,
): Promise<Connection> {
  const connection = ctx.connect(endpointId, { purpose });
  while (connection.state === 'connecting') await pause(ctx, 250, deadline, 'connecting');
  if (connection.state === 'open') return connection;
  throw new SqlFailed(connection.error?.sqlstate ?? connection.state);
}

/** SQLSTATEs after which the statement may succeed on a new connection: cut, failed to wake. */
const TRANSIENT_SQL = new Set(['57P01', '08006', 'dropped']);

/**
 * Runs a statement lasting `durationMs` on the compute, reconnecting when the connection is cut or
 * the compute fails to wake (up to 5 attempts, backing off from 1 s).
 */
export async function runStatement(
  ctx: ClientContext,
  endpointId: string,
  purpose: 'read' | 'write',
  durationMs: number,
  deadline: number,
): Promise<void> {
  let delay = 1_000;
  for (let attempt = 1; ; attempt++) {
    try {
      const connection = await openConnection(ctx, endpointId, purpose, deadline);
      try {
        const started = connection.query(durationMs);
        if (!started.ok) throw new SqlFailed(started.error.sqlstate);
        await pause(ctx, durationMs, deadline, 'running a statement');
        if (connection.state !== 'open')
          throw new SqlFailed(connection.error?.sqlstate ?? connection.state);
        return;
      } finally {
        connection.close();
      }
    } catch (error) {
      if (!(error instanceof SqlFailed) || !TRANSIENT_SQL.has(error.sqlstate) || attempt === 5)
        throw error;
      await pause(ctx, delay, deadline, 'reconnecting');
      delay *= 2;
    }
  }
}

function messageOf(body: unknown): string {
  const message = (body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : '';
}
