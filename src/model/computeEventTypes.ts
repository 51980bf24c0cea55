/**
 * The compute events: a compute created, its settings changed, deleted, its state changed, resized
 * by autoscaling (their meaning is in computeDeclarations.ts).
 */
import type { ComputeState, ComputeType } from '../domain/computeState.js';
import type { Stamp } from './eventStamp.js';
import type { EndpointSettings } from './state.js';

/** A compute was created, with every setting resolved. */
export interface EndpointCreated extends Stamp, EndpointSettings {
  readonly type: 'EndpointCreated';
  readonly projectId: string;
  readonly branchId: string;
  readonly endpointId: string;
  readonly endpointType: ComputeType;
  readonly host: string;
  readonly proxyHost: string;
  readonly regionId: string;
  readonly creationSource: string;
}

/** Settings of a compute changed (a branch change is a reassignment). */
interface EndpointUpdated extends Stamp {
  readonly type: 'EndpointUpdated';
  readonly projectId: string;
  readonly endpointId: string;
  readonly changes: Partial<EndpointSettings> & { readonly branchId?: string };
}

/** A compute was deleted. */
export interface EndpointDeleted extends Stamp {
  readonly type: 'EndpointDeleted';
  readonly projectId: string;
  readonly endpointId: string;
}

/** A compute's current and pending state changed (`pendingState: null` clears it). */
export interface ComputeStateChanged extends Stamp {
  readonly type: 'ComputeStateChanged';
  readonly projectId: string;
  readonly endpointId: string;
  readonly currentState: ComputeState;
  readonly pendingState: ComputeState | null;
  /** The compute image release it runs from now on (set when it becomes active). */
  readonly releaseVersion?: string;
}

/** Autoscaling changed a running compute's size (no restart, no disconnect). */
interface ComputeResized extends Stamp {
  readonly type: 'ComputeResized';
  readonly projectId: string;
  readonly endpointId: string;
  readonly fromCu: number;
  readonly toCu: number;
}

/** Every event of a compute. */
export type ComputeEvent =
  EndpointCreated | EndpointUpdated | EndpointDeleted | ComputeStateChanged | ComputeResized;
