/**
 * A client connection handle returned by `sim.connect`: its status and error read from the published
 * state, so they change as virtual time runs. Never throws for a refusal: look at `state` and `error`.
 */
import type { SqlError } from '../domain/sqlState.js';
import type { ConnectionStatus, SimState } from '../model/state.js';

/** What a handle needs from its simulation. */
export interface ConnectionHost {
  readonly state: SimState;
  close(connectionId: string): void;
}

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

  /** Closes the connection (nothing happens when it has already ended). */
  close(): void {
    this.#host.close(this.id);
  }
}
