/**
 * Carrying out the effects of an operation that change the objects around it, at the moment they
 * apply: compute state changes, dropped and opened connections, a branch becoming ready, storage
 * attached or detached. (The one effect that plans more work, waking a compute for the connections
 * waiting for it, is carried out by the planner: operationPlanner.ts `carryOut`.)
 */
import { isDown } from '../domain/computeState.js';
import { releaseAt } from '../domain/computeRelease.js';
import { SQL_STATES } from '../domain/sqlState.js';
import type { CommandDraft } from './commandDraft.js';
import { dropConnections, openWaiting } from './connectionEvents.js';
import type { OperationEffect } from './operationEffect.js';
import { computeStateChanged } from './computeDeclarations.js';

/** Where an operation applies: its project, branch and compute. */
export interface OperationTarget {
  readonly projectId: string;
  readonly branchId: string;
  readonly endpointId?: string | undefined;
}

/** An effect that changes objects (every kind but `wakeIfWaiting`). */
export type ObjectEffect = Exclude<OperationEffect, { readonly kind: 'wakeIfWaiting' }>;

/**
 * Adds to `draft` the events carrying out `effect` of an operation on `target`, against the state as
 * changed by the events decided so far (a start that follows a finished suspend sees it idle).
 */
export function carryOutObjectEffect(
  draft: CommandDraft,
  target: OperationTarget,
  effect: ObjectEffect,
): void {
  const project = draft.state.projects[target.projectId];
  const endpoint =
    target.endpointId === undefined ? undefined : project?.endpoints[target.endpointId];
  switch (effect.kind) {
    case 'computeState': {
      if (endpoint === undefined) return;
      const now = draft.computeStateOf(endpoint);
      if (effect.whenDown === true && !isDown(now.current, now.pending ?? undefined)) return;
      const current = effect.current ?? now.current;
      if (current === now.current && effect.pending === now.pending) return;
      const starts = current === 'active' && now.current !== 'active';
      const { profile, now: at } = draft.context;
      const release = starts ? releaseAt(profile.releases, at) : undefined;
      draft.push(
        computeStateChanged(endpoint.projectId, endpoint.id, current, effect.pending, release),
      );
      return;
    }
    case 'dropConnections':
      if (endpoint !== undefined)
        draft.pushAll(
          dropConnections(
            draft.state,
            endpoint.projectId,
            endpoint.id,
            SQL_STATES.terminated,
            'open',
          ),
        );
      return;
    case 'openWaiting':
      if (endpoint !== undefined) draft.pushAll(openWaiting(draft.state, endpoint));
      return;
    case 'branchReady': {
      const branch = project?.branches[target.branchId];
      if (branch !== undefined && branch.currentState !== 'ready') {
        draft.push({
          type: 'BranchStateChanged',
          projectId: branch.projectId,
          branchId: branch.id,
          currentState: 'ready',
        });
      }
      return;
    }
    case 'tenantAttached':
      draft.push({
        type: 'TenantAttachmentChanged',
        projectId: target.projectId,
        attached: effect.attached,
      });
      return;
  }
}
