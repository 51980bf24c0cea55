/**
 * The record of an operation as it is created: the keys in the order the state has always had them,
 * the compute and the start time only when the operation has them.
 */
import type { OperationCreated } from './events.js';
import type { OperationState } from './state.js';

/** A new operation's record, created at `e.at` with sort key `sortKey`. */
export function operationRecord(
  e: Omit<OperationCreated, 'type' | 'seq'>,
  sortKey: number,
): OperationState {
  const record: { -readonly [K in keyof OperationState]: OperationState[K] } = {
    id: e.operationId,
    projectId: e.projectId,
    branchId: e.branchId,
  } as OperationState;
  if (e.endpointId !== undefined) record.endpointId = e.endpointId;
  record.action = e.action;
  record.status = e.status;
  record.failuresCount = 0;
  record.createdAt = e.at;
  record.updatedAt = e.at;
  record.sortKey = sortKey;
  record.durationMs = e.durationMs;
  record.latency = e.latency;
  if (e.status === 'running') record.startedAt = e.at;
  record.totalDurationMs = 0;
  record.effects = e.effects;
  return record;
}
