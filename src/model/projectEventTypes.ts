/**
 * The project events: a project created, updated, deleted, recovered, purged, its storage detached
 * and reattached (their meaning is in projectDeclarations.ts).
 */
import type { Plan } from '../domain/plan.js';
import type { Stamp } from './eventStamp.js';
import type { ProjectEndpointDefaults } from './state.js';

/** A project was created (its default branch and compute follow as their own events). */
export interface ProjectCreated extends Stamp {
  readonly type: 'ProjectCreated';
  readonly projectId: string;
  readonly name: string;
  readonly regionId: string;
  readonly defaultBranchId: string;
  readonly plan: Plan;
  readonly pgVersion: number;
  readonly historyRetentionSeconds: number;
  /** The `default_endpoint_settings` the request gave (absent: none). */
  readonly defaultEndpointSettings?: ProjectEndpointDefaults;
}

/** A project's name, history retention or default compute settings changed (PATCH). */
interface ProjectUpdated extends Stamp {
  readonly type: 'ProjectUpdated';
  readonly projectId: string;
  readonly name?: string;
  readonly historyRetentionSeconds?: number;
  readonly defaultEndpointSettings?: ProjectEndpointDefaults;
}

/**
 * A project and everything in it were deleted: kept, with its computes idle and its unfinished
 * operations cancelled, until `recoverableUntil` (absent: gone for good at once).
 */
interface ProjectDeleted extends Stamp {
  readonly type: 'ProjectDeleted';
  readonly projectId: string;
  readonly recoverableUntil?: number;
}

/** A deleted project came back, with its branches and the computes `endpointIds` (idle). */
interface ProjectRecovered extends Stamp {
  readonly type: 'ProjectRecovered';
  readonly projectId: string;
  readonly endpointIds: readonly string[];
}

/** A deleted project's recovery window ended: it is gone for good. */
interface ProjectPurged extends Stamp {
  readonly type: 'ProjectPurged';
  readonly projectId: string;
}

/** A project's storage was detached after long idleness, or attached again. */
interface TenantAttachmentChanged extends Stamp {
  readonly type: 'TenantAttachmentChanged';
  readonly projectId: string;
  readonly attached: boolean;
}

/** Every event of a project as a whole. */
export type ProjectEvent =
  | ProjectCreated
  | ProjectUpdated
  | ProjectDeleted
  | ProjectRecovered
  | ProjectPurged
  | TenantAttachmentChanged;
