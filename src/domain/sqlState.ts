/**
 * SQLSTATE codes a simulated connection can end with, and the message each carries.
 */

/** Why a connection was refused or dropped, by SQLSTATE. */
export const SQL_STATES = {
  /** Past max_connections (direct) or the pooler's 10,000 client connections. */
  tooManyConnections: { sqlstate: '53300', message: 'sorry, too many clients already' },
  /** A statement needed more temporary disk than the compute has. */
  diskFull: { sqlstate: '53100', message: 'could not write to file: No space left on device' },
  /** The compute was restarted, resized, suspended or deleted under the connection. */
  terminated: { sqlstate: '57P01', message: 'terminating connection due to administrator command' },
  /** The compute does not exist (never did, or was deleted). */
  endpointNotFound: {
    sqlstate: '08001',
    message: 'the requested endpoint could not be found, or you do not have access to it',
  },
  /** The compute is disabled: connections are refused and do not wake it. */
  endpointDisabled: { sqlstate: '08004', message: 'the endpoint is disabled' },
  /** The compute failed to start. */
  startFailed: { sqlstate: '08006', message: 'the compute failed to start' },
  /** A statement on a connection that is not open (never opened, closed, dropped). */
  connectionDoesNotExist: { sqlstate: '08003', message: 'connection does not exist' },
  /** A statement on a connection already running one. */
  commandInProgress: { sqlstate: '55000', message: 'another command is already in progress' },
} as const;

/** A connection error: SQLSTATE and message. */
export interface SqlError {
  readonly sqlstate: string;
  readonly message: string;
}
