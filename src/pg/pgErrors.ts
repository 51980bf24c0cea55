/**
 * The errors the Postgres front itself answers, before any compute is reached, with the SQLSTATE
 * and message the real service's proxy (or Postgres) gives for the same mistake.
 */
import { errorText } from '../core/errorText.js';
import type { SqlError } from '../domain/sqlState.js';

/**
 * The SQLSTATE of the real proxy's own errors on the wire (it assigns no finer codes); over HTTP
 * they carry an empty `code`.
 */
export const PROXY_ERROR = 'XX000';

/** Errors of the front, by cause. */
export const PG_ERRORS = {
  /** No endpoint in `options` nor in the password, and no SNI (the front has no TLS). */
  endpointNotSpecified: {
    sqlstate: '08001',
    message:
      'The endpoint ID is not specified. Either upgrade the Postgres client library (libpq) for SNI ' +
      "support or pass the endpoint ID (the first part of the domain name) as a parameter: '&options=endpoint%3D<endpoint-id>'.",
  },
  /**
   * A client that would send its password in clear without TLS (no compute named before it): the
   * real proxy's words for a connection without TLS.
   */
  insecure: {
    sqlstate: PROXY_ERROR,
    message: 'connection is insecure (try using `sslmode=require`)',
  },
  /**
   * Not the role's password, an unknown role, or an unknown compute: the real proxy's one answer to
   * all three (its own errors carry XX000, and no SQLSTATE over HTTP).
   */
  passwordFailed: (user: string): SqlError => ({
    sqlstate: PROXY_ERROR,
    message: `password authentication failed for user '${user}'`,
  }),
  /** The branch has no database of that name. */
  unknownDatabase: (name: string): SqlError => ({
    sqlstate: '3D000',
    message: `database "${name}" does not exist`,
  }),
  /** A statement cancelled by the client's CancelRequest (its session's instance was stopped). */
  cancelled: { sqlstate: '57014', message: 'canceling statement due to user request' },
  /** A statement that ran past the session's `statement_timeout` (stopped the same way). */
  timedOut: { sqlstate: '57014', message: 'canceling statement due to statement timeout' },
  /** The front could not serve the client (the store refused a write, a database failed to open). */
  unavailable: (cause: unknown): SqlError => ({
    sqlstate: '08006',
    message: `computesim could not serve the connection: ${errorText(cause)}`,
  }),
} as const;
