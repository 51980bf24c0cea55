/**
 * Operation actions as the public v2 API names them. What an operation does is decided when it is
 * recorded and carried as data on it (model/operationEffect.ts), not looked up by action.
 */

/** Every action identifier of the public v2 API's operation enum that the simulator records. */
export const OPERATION_ACTIONS = [
  'apply_config',
  'apply_storage_config',
  'check_availability',
  'create_branch',
  'create_timeline',
  'delete_timeline',
  'start_compute',
  'suspend_compute',
  'tenant_attach',
  'tenant_detach',
  'tenant_reattach',
  'timeline_archive',
  'timeline_unarchive',
] as const;

/** An operation action identifier. */
export type OperationAction = (typeof OPERATION_ACTIONS)[number];
