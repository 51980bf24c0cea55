/**
 * Events of the control plane: facts in the past tense, carrying every value `evolve` needs (ids,
 * drawn durations, resolved settings), so replay never draws random numbers or reads the profile.
 * Each aggregate's events are declared in its own file (projectEventTypes.ts, branchEventTypes.ts,
 * …); this file joins them into the unions the rest of the code reads.
 */
import type { EngineEvent } from '../engine/loggedEvent.js';
import type { BranchEvent } from './branchEventTypes.js';
import type { ComputeEvent } from './computeEventTypes.js';
import type { ConnectionEvent } from './connectionEventTypes.js';
import type { OperationEvent } from './operationEventTypes.js';
import type { ProjectEvent } from './projectEventTypes.js';
import type { SettingsEvent } from './settingsEventTypes.js';
import type { WorkloadEvent } from './workloadEventTypes.js';

/** Every domain event. */
export type DomainEvent =
  | ProjectEvent
  | BranchEvent
  | ComputeEvent
  | OperationEvent
  | ConnectionEvent
  | WorkloadEvent
  | SettingsEvent;

/** Every event of a control-plane log: the engine's own (header, clock marks) and the domain's. */
export type SimEvent = EngineEvent | DomainEvent;
