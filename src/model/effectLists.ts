/**
 * The effect lists operation plans use, each one frozen list shared by every plan that has it. The
 * planner finds the shared effects record of a plan by the identity of its two lists; a list built
 * afresh per request would cost a JSON key per operation instead.
 */
import { deepFreeze } from '../core/deepFreeze.js';
import type { OperationEffect } from './operationEffect.js';

type Effects = readonly OperationEffect[];

/** Nothing happens. */
export const NO_EFFECTS: Effects = deepFreeze([]);
/** A start begins: the compute is pending active. */
export const START_RUNNING: Effects = deepFreeze([{ kind: 'computeState', pending: 'active' }]);
/** A start ends: the compute is active and the connections waiting for it open. */
export const START_FINISHED: Effects = deepFreeze([
  { kind: 'computeState', current: 'active', pending: null },
  { kind: 'openWaiting' },
]);
/** A suspend begins: open connections are dropped and the compute is pending idle. */
export const SUSPEND_RUNNING: Effects = deepFreeze([
  { kind: 'dropConnections' },
  { kind: 'computeState', pending: 'idle' },
]);
/** A suspend ends: the compute is idle, and started again if connections wait for it. */
export const SUSPEND_FINISHED: Effects = deepFreeze([
  { kind: 'computeState', current: 'idle', pending: null },
  { kind: 'wakeIfWaiting' },
]);
/** The compute ends idle (a suspend that a start follows at once). */
export const ENDS_IDLE: Effects = deepFreeze([
  { kind: 'computeState', current: 'idle', pending: null },
]);
/** A compute still down is woken for the operation (pending active). */
export const WAKES_IF_DOWN: Effects = deepFreeze([
  { kind: 'computeState', current: 'idle', pending: 'active', whenDown: true },
]);
/** The compute ends active. */
export const ENDS_ACTIVE: Effects = deepFreeze([
  { kind: 'computeState', current: 'active', pending: null },
]);
/** The branch becomes ready. */
export const BRANCH_READY: Effects = deepFreeze([{ kind: 'branchReady' }]);
/** The project's storage is detached. */
export const TENANT_DETACHED: Effects = deepFreeze([{ kind: 'tenantAttached', attached: false }]);
/** The project's storage is attached again. */
export const TENANT_ATTACHED: Effects = deepFreeze([{ kind: 'tenantAttached', attached: true }]);
