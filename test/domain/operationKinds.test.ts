/**
 * The operation kinds table: one row per action, and the lock each row declares is the one a request
 * meets (its whole project by default, its compute and branch when the profile narrows it) (the 423 tests in test/model/locksAndFaults.test.ts exercise the same rows end to end).
 */
import { describe, expect, it } from 'vitest';
import { OPERATION_ACTIONS, type OperationAction } from '../../src/domain/operationAction.js';
import {
  OPERATION_KINDS,
  operationKind,
  type OperationRole,
} from '../../src/domain/operationKinds.js';
import { DEFAULT_PROFILE } from '../../src/domain/profile.js';
import { LOCKED_MESSAGE } from '../../src/domain/rejection.js';
import { lockedBy } from '../../src/model/lookups.js';
import type { OperationState, ProjectState } from '../../src/model/state.js';

/** A project whose only unfinished operation is one `action` on compute `ep-1` of branch `br-1`. */
function projectRunning(action: OperationAction): ProjectState {
  const operation = {
    id: 'op-1',
    projectId: 'p-1',
    branchId: 'br-1',
    endpointId: 'ep-1',
    action,
    status: 'running',
  } as OperationState;
  return {
    id: 'p-1',
    operations: { 'op-1': operation },
    pendingOperations: { 'op-1': true },
  } as unknown as ProjectState;
}

describe('operation kinds', () => {
  it('has exactly one row per action', () => {
    expect(Object.keys(OPERATION_KINDS).sort()).toEqual([...OPERATION_ACTIONS].sort());
    for (const action of OPERATION_ACTIONS)
      expect(operationKind(action)).toBe(OPERATION_KINDS[action]);
  });

  it('locks the project for every action but the background availability check', () => {
    const background = OPERATION_ACTIONS.filter((a) => OPERATION_KINDS[a].locks === 'nothing');
    expect(background).toEqual(['check_availability']);
  });

  it.each(OPERATION_ACTIONS)('refuses with 423 exactly as the row of %s says', (action) => {
    const project = projectRunning(action);
    const locks = OPERATION_KINDS[action].locks === 'project';
    const narrow = { ...DEFAULT_PROFILE.locks, scope: 'compute-and-branch' as const };
    // By default the lock holds the whole project, also computes and branches it does not touch.
    expect(
      lockedBy(project, { endpointId: 'ep-2', branchId: 'br-2' }, DEFAULT_PROFILE.locks)?.kind,
    ).toBe(locks ? 'locked' : undefined);
    // Narrowed, it holds only its own compute and branch.
    expect(lockedBy(project, { endpointId: 'ep-1' }, narrow)?.kind === 'locked').toBe(locks);
    expect(lockedBy(project, { branchId: 'br-1' }, narrow)?.kind === 'locked').toBe(locks);
    expect(lockedBy(project, { endpointId: 'ep-2', branchId: 'br-2' }, narrow)).toBeUndefined();
  });

  it('refuses with 423 once the project has as many unfinished operations as its cap, of any kind', () => {
    const project = projectRunning('check_availability');
    const cap = (maxUnfinishedOperations: number) => ({
      ...DEFAULT_PROFILE.locks,
      maxUnfinishedOperations,
    });
    expect(lockedBy(project, {}, cap(2))).toBeUndefined();
    expect(lockedBy(project, {}, cap(1))).toMatchObject({
      kind: 'locked',
      message: LOCKED_MESSAGE,
      detail: expect.stringMatching(/1 operations are unfinished/),
    });
  });

  it('gives each single-action role to the action the control plane uses for it', () => {
    const holders = (role: OperationRole) =>
      OPERATION_ACTIONS.filter((a) => OPERATION_KINDS[a][role]);
    expect(holders('startsCompute')).toEqual(['start_compute']);
    expect(holders('releasesCompute')).toEqual(['suspend_compute']);
    expect(holders('detachesStorage')).toEqual(['tenant_detach']);
    expect(holders('reattachesStorage')).toEqual(['tenant_reattach']);
    expect(holders('failureBlocksStart')).toEqual([
      'create_branch',
      'create_timeline',
      'start_compute',
      'tenant_reattach',
    ]);
  });
});
