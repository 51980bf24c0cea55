/**
 * What one client's session holds on a backend it shares with the other clients of its database:
 * its settings, its prepared statements, its temporary tables, the channels it listens on. While
 * another client has the backend, the session is kept here (and its temporary relations under
 * names of its own); it is put back when its client's next transaction begins.
 */

/** A prepared statement as `pg_prepared_statements` shows it. */
export interface SavedStatement {
  readonly name: string;
  readonly statement: string;
  /** Made by SQL `PREPARE` (its text is the whole `PREPARE`), or by a protocol Parse. */
  readonly fromSql: boolean;
  readonly parameterTypes: readonly number[];
}

/** A temporary relation kept under a name of its session's while another session has the backend. */
export interface SavedRelation {
  readonly name: string;
  readonly kind: string;
}

/** One client's session. */
export class SessionState {
  /** Settings to put back (name → value), at first those of the startup message. */
  settings: ReadonlyMap<string, string>;
  statements: readonly SavedStatement[] = [];
  relations: readonly SavedRelation[] = [];
  /** Channels the client listens on. */
  readonly channels = new Set<string>();
  /** Whether the client has gone (its relations are dropped when the backend next changes hands). */
  ended = false;
  /** Whether the session has been on its backend yet (its startup settings applied). */
  entered = false;
  /**
   * The session's `statement_timeout`, ms (0: none), which the front enforces (an embedded Postgres
   * cannot interrupt itself); `undefined` until read from the backend.
   */
  statementTimeoutMs: number | undefined;

  /**
   * @param id - the session's process id (its cancel key's), which names its kept relations
   * @param settings - the settings its startup message asked for
   */
  constructor(
    readonly id: number,
    settings: ReadonlyMap<string, string>,
  ) {
    this.settings = settings;
  }

  /** The name a temporary relation of this session is kept under while it is away. */
  keptName(name: string): string {
    const suffix = `__s${this.id}`;
    return `${name.slice(0, 63 - suffix.length)}${suffix}`;
  }
}
