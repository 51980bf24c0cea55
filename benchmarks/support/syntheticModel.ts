/**
 * A synthetic Decider for measuring the engine loop itself: each fired timer decides one event, which
 * is logged, applied to a nested draft (one counter per job) and re-arms the job's timer, like the
 * hold model. Increments come from the shared table, so only the engine's own work is measured.
 */
import type { Decider } from '../../src/engine/index.js';
import { ok } from '../../src/engine/index.js';
import { increment } from './holdModel.js';

/** One counter per job, nested like computes under projects. */
export interface SyntheticState {
  readonly jobs: Readonly<Record<string, { readonly runs: number; readonly lastAt: number }>>;
}

type Command =
  | { readonly type: 'Start'; readonly jobs: number }
  | { readonly type: 'Run'; readonly job: string };
type Event =
  | {
      readonly type: 'JobStarted';
      readonly at: number;
      readonly seq: number;
      readonly job: string;
      readonly delay: number;
    }
  | {
      readonly type: 'JobRan';
      readonly at: number;
      readonly seq: number;
      readonly job: string;
      readonly delay: number;
    };
type Timer = Extract<Command, { type: 'Run' }>;

/** A synthetic model that stops re-arming after `events` runs. */
export function syntheticModel(
  events: number,
): Decider<SyntheticState, Command, Event, Timer, never> {
  let step = 0;
  return {
    initialState: () => ({ jobs: {} }),
    decide(_state, command) {
      if (command.type === 'Start') {
        return ok(
          Array.from({ length: command.jobs }, (_, i) => ({
            type: 'JobStarted' as const,
            job: `job-${i}`,
            delay: increment(step++),
          })),
        );
      }
      return ok([
        { type: 'JobRan', job: command.job, delay: step < events ? increment(step++) : -1 },
      ]);
    },
    evolve(draft, event, touch) {
      touch?.('jobs', event.job);
      if (event.type === 'JobStarted') {
        draft.jobs[event.job] = { runs: 0, lastAt: event.at };
        return;
      }
      const job = draft.jobs[event.job];
      if (job !== undefined) {
        job.runs++;
        job.lastAt = event.at;
      }
    },
    armTimers(event, _state, arm) {
      if (event.delay >= 0) arm(event.at + event.delay, { type: 'Run', job: event.job });
    },
    commandForTimer: (timer) => timer,
  };
}
