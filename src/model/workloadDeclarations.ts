/**
 * What the workload events mean (see eventDeclaration.ts): a workload attached, its sessions
 * arriving; for each, how it changes the state, what it changes, the timers it arms, and its
 * narration.
 */
import type { Draft } from 'immer';
import type { WorkloadSpec } from '../workload/workloadSpec.js';
import type { Declarations } from './eventDeclaration.js';
import { entryOf, setEntry } from './workingMaps.js';

/** The declarations of the workload events. */
export const WORKLOAD_EVENTS: Declarations<'WorkloadAttached' | 'SessionArrived'> = {
  WorkloadAttached: {
    apply(draft, e) {
      setEntry(draft.workloads, e.workloadId, {
        id: e.workloadId,
        spec: e.spec as Draft<WorkloadSpec>,
        nextIndex: 0,
        nextAt: e.firstAt,
      });
    },
    touches: (e, touch) => touch('workloads', e.workloadId),
    timers(e, state, profile, arm) {
      if (e.firstAt !== null) {
        const timer = { type: 'ArriveSession', workloadId: e.workloadId, index: 0 } as const;
        arm(Math.max(e.at, e.firstAt), timer, true);
      }
    },
    narrate: (e) =>
      `workload ${e.workloadId} (${e.spec.kind}) attached${e.firstAt === null ? ', with no sessions' : ''}`,
  },

  SessionArrived: {
    apply(draft, e) {
      const workload = entryOf(draft.workloads, e.workloadId);
      if (workload === undefined) return;
      workload.nextIndex = e.index + 1;
      workload.nextAt = e.nextAt;
    },
    touches: (e, touch) => touch('workloads', e.workloadId),
    timers(e, state, profile, arm) {
      if (e.nextAt !== null) {
        const { workloadId, index } = e;
        arm(e.nextAt, { type: 'ArriveSession', workloadId, index: index + 1 }, true);
      }
    },
    narrate: () => undefined,
  },
};
