/**
 * What a client did during a run, as the testing harness saw it: every request with its answer and
 * every connection it opened, stamped with virtual time. Oracles judge a client from this record.
 */

/** One request of the client and the answer it got. */
export interface RecordedRequest {
  /** Order of the request in the run, from 0. */
  readonly index: number;
  /** Virtual time of the request, epoch ms. */
  readonly at: number;
  readonly method: string;
  /** Path relative to `/api/v2`, without the query. */
  readonly path: string;
  /** The query string, without `?` ('' when none). */
  readonly query: string;
  /** The route's pattern (`/projects/{project_id}/endpoints`), undefined for an unknown route. */
  readonly route?: string;
  /** The project the path names, if any. */
  readonly projectId?: string;
  readonly body?: unknown;
  readonly status: number;
  readonly response: unknown;
  /** Set when the answer was a fault the harness injected (423, 429, 503), not the simulation's. */
  readonly injected?: 'locked' | 'rate_limited' | 'unavailable';
  /** Seconds in the answer's `Retry-After` header (a 429's, a 503's), when it had one. */
  readonly retryAfterSeconds?: number;
}

/** A connection the client opened, and what it needed it for. */
export interface RecordedConnection {
  readonly index: number;
  readonly at: number;
  readonly endpointId: string;
  /** What the client needs the connection for: writes need a read_write compute. */
  readonly purpose: 'read' | 'write';
  /** The compute's type when the client connected (undefined when it does not exist). */
  readonly endpointType?: 'read_write' | 'read_only';
}

/** A statement (or BEGIN, COMMIT, ROLLBACK) the client ran on one of its connections. */
export interface RecordedStatement {
  readonly index: number;
  readonly at: number;
  /** The connection it ran on (`RecordedConnection.index`). */
  readonly connectionIndex: number;
  readonly kind: 'query' | 'begin' | 'commit' | 'rollback';
  /** The connection's status when the statement was sent (`connecting`, `open`, `dropped`…). */
  readonly connectionState: string;
  /** The refusal, when the statement was refused (08003 on a connection not open, 55000…). */
  readonly refused?: { readonly sqlstate: string; readonly message: string };
}

/** Everything a client did in one run. */
export interface ClientRecord {
  readonly requests: readonly RecordedRequest[];
  readonly connections: readonly RecordedConnection[];
  /** Statements on its connections (absent from records made before statements were kept). */
  readonly statements?: readonly RecordedStatement[];
}

/** True for methods that change something (everything but GET). */
export function isMutating(request: Pick<RecordedRequest, 'method'>): boolean {
  return request.method.toUpperCase() !== 'GET';
}
