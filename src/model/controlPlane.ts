/**
 * The control plane as a Decider the engine can run: the command handler table, evolve, and the
 * timers events arm, bound to one profile.
 */
import { armTimers, evolver } from './eventMeanings.js';
import type { Profile } from '../domain/profile.js';
import type { Rejection } from '../domain/rejection.js';
import type { DecideContext, Decider } from '../engine/decider.js';
import type { Command } from './commands.js';
import type { Handler, ModelContext } from './decideContext.js';
import type { DomainEvent } from './events.js';
import { autoscale } from './handlers/autoscale.js';
import { createApiKey, revokeApiKey } from './handlers/apiKeys.js';
import { checkAvailability } from './handlers/checkAvailability.js';
import { completeOperation } from './handlers/completeOperation.js';
import { detachIdleTenant } from './handlers/detachIdleTenant.js';
import { closeConnection, openConnection } from './handlers/connections.js';
import { dropOpenConnections } from './handlers/dropOpenConnections.js';
import { createBranch } from './handlers/createBranch.js';
import { createEndpoint } from './handlers/createEndpoint.js';
import { createProject } from './handlers/createProject.js';
import { deleteBranch } from './handlers/deleteBranch.js';
import { purgeBranch, purgeProject, recoverBranch, recoverProject } from './handlers/recovery.js';
import { deleteEndpoint } from './handlers/deleteEndpoint.js';
import { deleteProject } from './handlers/deleteProject.js';
import { restartEndpoint, startEndpoint, suspendEndpoint } from './handlers/powerEndpoint.js';
import { retryOperation } from './handlers/retryOperation.js';
import { startDelayedOperation } from './handlers/startDelayedOperation.js';
import { suspendIdleCompute } from './handlers/suspendIdleCompute.js';
import { pruneOperations } from './handlers/pruneOperations.js';
import { endSession } from './handlers/sessions.js';
import { endQuery, runQuery, setTransaction } from './handlers/queries.js';
import { updateEndpoint } from './handlers/updateEndpoint.js';
import { arriveSession, attachWorkload, repeatWorkload } from './handlers/workloads.js';
import { updateProject } from './handlers/updateProject.js';
import { updateBranch } from './handlers/updateBranch.js';
import { setDefaultBranch } from './handlers/setDefaultBranch.js';
import { restoreBranch } from './handlers/restoreBranch.js';
import { createRole, deleteRole, resetRolePassword } from './handlers/roles.js';
import { createDatabase, deleteDatabase, updateDatabase } from './handlers/databases.js';
import type { SimState } from './state.js';
import { workingState } from './operationStore.js';
import type { TimerCommand } from './timers.js';

type HandlerTable = { readonly [K in Command['type']]: Handler<Extract<Command, { type: K }>> };

const HANDLERS: HandlerTable = {
  CreateProject: createProject,
  DeleteProject: deleteProject,
  CreateBranch: createBranch,
  DeleteBranch: deleteBranch,
  RecoverProject: recoverProject,
  RecoverBranch: recoverBranch,
  PurgeProject: purgeProject,
  PurgeBranch: purgeBranch,
  CreateEndpoint: createEndpoint,
  UpdateEndpoint: updateEndpoint,
  DeleteEndpoint: deleteEndpoint,
  RestartEndpoint: restartEndpoint,
  StartEndpoint: startEndpoint,
  SuspendEndpoint: suspendEndpoint,
  OpenConnection: openConnection,
  CloseConnection: closeConnection,
  DropConnections: dropOpenConnections,
  CompleteOperation: completeOperation,
  RetryOperation: retryOperation,
  StartDelayedOperation: startDelayedOperation,
  SuspendIdleCompute: suspendIdleCompute,
  CheckAvailability: checkAvailability,
  DetachIdleTenant: detachIdleTenant,
  AttachWorkload: attachWorkload,
  RepeatWorkload: repeatWorkload,
  ArriveSession: arriveSession,
  EndSession: endSession,
  Autoscale: autoscale,
  PruneOperations: pruneOperations,
  CreateApiKey: createApiKey,
  RevokeApiKey: revokeApiKey,
  UpdateProject: updateProject,
  UpdateBranch: updateBranch,
  SetDefaultBranch: setDefaultBranch,
  RestoreBranch: restoreBranch,
  RunQuery: runQuery,
  SetTransaction: setTransaction,
  EndQuery: endQuery,
  CreateRole: createRole,
  DeleteRole: deleteRole,
  ResetRolePassword: resetRolePassword,
  CreateDatabase: createDatabase,
  UpdateDatabase: updateDatabase,
  DeleteDatabase: deleteDatabase,
};

/** The control-plane Decider for one profile. */
export type ControlPlane = Decider<SimState, Command, DomainEvent, TimerCommand, Rejection>;

/** Builds the control-plane Decider for `profile`. */
export function createControlPlane(profile: Profile): ControlPlane {
  // The engine passes the same context object to every command; wrap it once, not per command.
  let wrapped: DecideContext | undefined;
  let modelContext: ModelContext | undefined;
  // The profile in force: the header's until settings change (state.profile, set by a fork).
  let inForce = profile;
  const withProfile = (context: DecideContext): ModelContext => {
    if (context !== wrapped || modelContext === undefined) {
      wrapped = context;
      modelContext = {
        get now() {
          return context.now;
        },
        get nextSeq() {
          return context.nextSeq;
        },
        random: (purpose) => context.random(purpose),
        stream: context.stream,
        get profile() {
          return inForce;
        },
      };
    }
    return modelContext;
  };
  return {
    initialState: workingState,
    decide(state, command, context) {
      const handler = HANDLERS[command.type] as Handler<Command>;
      inForce = state.profile ?? profile;
      return handler(state, command, withProfile(context));
    },
    evolve: evolver(),
    armTimers: (event, state, arm) => armTimers(event, state, state.profile ?? profile, arm),
    commandForTimer: (timer) => timer,
    isRecordOnly: (event) => event.type === 'RequestLocked',
  };
}
