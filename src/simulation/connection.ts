/**
 * A client connection handle returned by `sim.connect`: its status and error read from the published
 * state, so they change as virtual time runs. Never throws for a refusal: look at `state` and `error`.
 * Statements and transactions make it active (keeping its compute awake); an idle connection does
 * not keep a compute up and is closed (57P01) when the compute scales to zero.
 */
import { parseDuration, type Duration } from '../core/duration.js';
import { SQL_STATES, type SqlError } from '../domain/sqlState.js';
import type { ConnectionStatus, SimState } from '../model/state.js';

/** What a handle needs from its simulation. */
export interface ConnectionHost {
  readonly state: SimState;
  close(connectionId: string): void;
  query(connectionId: string, durationMs: number): void;
  transaction(connectionId: string, open: boolean): void;
}

/** What the backend of an open connection is doing, as `pg_stat_activity.state` names it. */
export type ConnectionActivity = 'idle' | 'active' | 'idle in transaction';

/** The answer to a statement: accepted, or refused with a SQLSTATE (nothing changes then). */
export type StatementResult =
  { readonly ok: true } | { readonly ok: false; readonly error: SqlError };

/** A simulated client connection to a compute. */
export class Connection {
  readonly #host: ConnectionHost;

  constructor(
    readonly id: string,
    readonly endpointId: string,
    readonly pooled: boolean,
    host: ConnectionHost,
  ) {
    this.#host = host;
  }

  /** `connecting` while the compute starts, then `open`; `closed`, `refused` or `dropped` at the end. */
  get state(): ConnectionStatus {
    return this.#host.state.connections[this.id]?.status ?? 'closed';
  }

  /** Why the connection was refused or dropped: SQLSTATE and message. */
  get error(): SqlError | undefined {
    return this.#host.state.connections[this.id]?.error;
  }

  /**
   * What an open connection is doing: `active` while a statement runs, `idle in transaction`
   * between `begin` and `commit`, else `idle`; `undefined` when it is not open.
   */
  get activity(): ConnectionActivity | undefined {
    const record = this.#host.state.connections[this.id];
    if (record?.status !== 'open') return undefined;
    if (record.queryUntil !== undefined) return 'active';
    return record.inTransaction === true ? 'idle in transaction' : 'idle';
  }

  /**
   * Runs a statement lasting `duration` of virtual time (ms or `'30s'`): the connection is active
   * and keeps its compute awake until it ends. Refused (nothing changes) when the connection is not
   * open (08003) or already runs a statement (55000).
   */
  query(duration: Duration): StatementResult {
    const durationMs = parseDuration(duration);
    const refused = this.#refusal();
    if (refused !== undefined) return refused;
    if (this.activity === 'active') return { ok: false, error: SQL_STATES.commandInProgress };
    this.#host.query(this.id, durationMs);
    return { ok: true };
  }

  /** `BEGIN`: until `commit` or `rollback` the connection counts as active, even with no statement. */
  begin(): StatementResult {
    return this.#transaction(true);
  }

  /** `COMMIT`: ends the open transaction (without one, nothing happens, as in Postgres). */
  commit(): StatementResult {
    return this.#transaction(false);
  }

  /** `ROLLBACK`: like `commit` for the scale-to-zero clock. */
  rollback(): StatementResult {
    return this.#transaction(false);
  }

  /** Closes the connection (nothing happens when it has already ended). */
  close(): void {
    this.#host.close(this.id);
  }

  #transaction(open: boolean): StatementResult {
    const refused = this.#refusal();
    if (refused !== undefined) return refused;
    this.#host.transaction(this.id, open);
    return { ok: true };
  }

  #refusal(): StatementResult | undefined {
    return this.state === 'open'
      ? undefined
      : { ok: false, error: SQL_STATES.connectionDoesNotExist };
  }
}
