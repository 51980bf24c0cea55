/**
 * The connection events: a connection requested while its compute starts, opened, refused, closed or
 * dropped, its statements and transactions (their meaning is in connectionDeclarations.ts).
 */
import type { Stamp } from './eventStamp.js';

/**
 * What a workload session does once connected (absent on plain `sim.connect` connections): how long
 * it holds the connection and the demand it puts on the compute meanwhile.
 */
export interface SessionDemand {
  readonly holdMs?: number;
  /** CPU, thousandths of a vCPU. */
  readonly milliCpu?: number;
  /** Memory its queries hold, MB. */
  readonly memoryMb?: number;
  /** Data its queries keep touching (working set), MB. */
  readonly cacheMb?: number;
  /** Temporary disk its biggest statement needs, GB. */
  readonly tempDiskGb?: number;
}

/** A client asked for a connection and waits for the compute to start. */
interface ConnectionRequested extends Stamp, SessionDemand {
  readonly type: 'ConnectionRequested';
  readonly connectionId: string;
  readonly projectId: string;
  readonly endpointId: string;
  readonly pooled: boolean;
  readonly tracked: boolean;
}

/** A connection opened (at once, or after waiting for a start). */
interface ConnectionOpened extends Stamp, SessionDemand {
  readonly type: 'ConnectionOpened';
  readonly connectionId: string;
  readonly projectId: string;
  readonly branchId: string;
  readonly endpointId: string;
  readonly pooled: boolean;
  readonly tracked: boolean;
}

/** A connection was refused (at once, or after waiting). */
interface ConnectionRefused extends Stamp {
  readonly type: 'ConnectionRefused';
  readonly connectionId: string;
  readonly projectId?: string;
  readonly endpointId: string;
  readonly pooled: boolean;
  readonly tracked: boolean;
  readonly sqlstate: string;
  readonly message: string;
}

/** The client closed its connection. */
interface ConnectionClosed extends Stamp {
  readonly type: 'ConnectionClosed';
  readonly connectionId: string;
  readonly projectId: string;
  readonly endpointId: string;
}

/** The control plane terminated every connection of a compute. */
export interface ConnectionsDropped extends Stamp {
  readonly type: 'ConnectionsDropped';
  readonly projectId: string;
  readonly endpointId: string;
  readonly connectionIds: readonly string[];
  readonly sqlstate: string;
  readonly message: string;
}

/** A statement of a session failed (for example 53100: more temporary disk than the compute has). */
interface StatementFailed extends Stamp {
  readonly type: 'StatementFailed';
  readonly connectionId: string;
  readonly projectId: string;
  readonly endpointId: string;
  readonly sqlstate: string;
  readonly message: string;
}

/** A statement started on an open connection; it runs until `until` (the connection is active). */
interface QueryStarted extends Stamp {
  readonly type: 'QueryStarted';
  readonly connectionId: string;
  readonly projectId: string;
  readonly endpointId: string;
  readonly until: number;
}

/** The statement of a connection finished (the connection is idle again, unless in a transaction). */
interface QueryFinished extends Stamp {
  readonly type: 'QueryFinished';
  readonly connectionId: string;
  readonly projectId: string;
  readonly endpointId: string;
}

/** A connection opened (`open: true`) or ended (`false`) a transaction. */
interface TransactionChanged extends Stamp {
  readonly type: 'TransactionChanged';
  readonly connectionId: string;
  readonly projectId: string;
  readonly endpointId: string;
  readonly open: boolean;
}

/** Every event of a connection, its statements and transactions. */
export type ConnectionEvent =
  | ConnectionRequested
  | ConnectionOpened
  | ConnectionRefused
  | ConnectionClosed
  | ConnectionsDropped
  | StatementFailed
  | QueryStarted
  | QueryFinished
  | TransactionChanged;
