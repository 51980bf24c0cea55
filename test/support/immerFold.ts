/**
 * An independent oracle for published state: folds a log through immer's `produce`, one event at a
 * time from the empty state, so a missing `touches` declaration shows up as a difference.
 */
import { produce } from 'immer';
import type { DomainEvent, SimState } from '../../src/index.js';
import { evolve } from '../../src/model/eventMeanings.js';
import { emptyState } from '../../src/model/state.js';

/** The state a log describes, built with immer alone. */
export function immerFold(log: Iterable<{ readonly type: string }>): SimState {
  let state = emptyState();
  for (const event of log) {
    if (event.type === 'SimulationStarted' || event.type === 'ClockAdvanced') continue;
    state = produce(state, (draft) => evolve(draft, event as DomainEvent));
  }
  return state;
}
