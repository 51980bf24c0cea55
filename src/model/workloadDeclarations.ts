/**
 * What the workload events mean (see eventDeclaration.ts): a workload attached, its sessions
 * arriving; for each, how it changes the state, the timers it arms, and its narration.
 */
import type { Declarations } from './eventDeclaration.js';

/** The declarations of the workload events. */
export const WORKLOAD_EVENTS: Declarations<'WorkloadAttached' | 'SessionArrived'> = {
  WorkloadAttached: {
    apply(write, e) {
      write.putRoot('workloads', e.workloadId, {
        id: e.workloadId,
        spec: e.spec,
        nextIndex: 0,
        nextAt: e.firstAt,
      });
    },
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
    apply(write, e) {
      const workload = write.rootEntry('workloads', e.workloadId);
      if (workload === undefined) return;
      workload.nextIndex = e.index + 1;
      workload.nextAt = e.nextAt;
    },
    timers(e, state, profile, arm) {
      if (e.nextAt !== null) {
        const { workloadId, index } = e;
        arm(e.nextAt, { type: 'ArriveSession', workloadId, index: index + 1 }, true);
      }
    },
    narrate: () => undefined,
  },
};
