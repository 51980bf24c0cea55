/**
 * The record of an operation as it is created. Each of its four shapes is one object literal with
 * every field in place (the keys in the order the state has always had them), so the record holds
 * its fields in the object itself: a fleet's month keeps millions of them, and one built field by
 * field also carries a separately allocated, slack-sized store for the fields past the first three
 * (what this buys: docs/performance.md).
 */
import type { OperationCreated } from './events.js';
import type { OperationState } from './state.js';

/** A new operation's record, created at `e.at` with sort key `sortKey`. */
export function operationRecord(
  e: Omit<OperationCreated, 'type' | 'seq'>,
  sortKey: number,
): OperationState {
  const startedAt = e.status === 'running' ? e.at : undefined;
  if (e.endpointId === undefined) {
    if (startedAt === undefined)
      return {
        id: e.operationId,
        projectId: e.projectId,
        branchId: e.branchId,
        action: e.action,
        status: e.status,
        failuresCount: 0,
        createdAt: e.at,
        updatedAt: e.at,
        sortKey,
        durationMs: e.durationMs,
        latency: e.latency,
        totalDurationMs: 0,
        effects: e.effects,
      };
    return {
      id: e.operationId,
      projectId: e.projectId,
      branchId: e.branchId,
      action: e.action,
      status: e.status,
      failuresCount: 0,
      createdAt: e.at,
      updatedAt: e.at,
      sortKey,
      durationMs: e.durationMs,
      latency: e.latency,
      startedAt,
      totalDurationMs: 0,
      effects: e.effects,
    };
  }
  if (startedAt === undefined)
    return {
      id: e.operationId,
      projectId: e.projectId,
      branchId: e.branchId,
      endpointId: e.endpointId,
      action: e.action,
      status: e.status,
      failuresCount: 0,
      createdAt: e.at,
      updatedAt: e.at,
      sortKey,
      durationMs: e.durationMs,
      latency: e.latency,
      totalDurationMs: 0,
      effects: e.effects,
    };
  return {
    id: e.operationId,
    projectId: e.projectId,
    branchId: e.branchId,
    endpointId: e.endpointId,
    action: e.action,
    status: e.status,
    failuresCount: 0,
    createdAt: e.at,
    updatedAt: e.at,
    sortKey,
    durationMs: e.durationMs,
    latency: e.latency,
    startedAt,
    totalDurationMs: 0,
    effects: e.effects,
  };
}
