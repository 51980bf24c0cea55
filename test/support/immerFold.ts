/**
 * An independent oracle for published state: folds a log through immer's `produce`, one event at a
 * time from the empty state, so a change the engine's publishing missed shows up as a difference.
 */
import { produce } from 'immer';
import type { SimState } from '../../src/index.js';
import type { DomainEvent } from '../../src/entries/model.js';
import { evolver } from '../../src/model/eventMeanings.js';
import { emptyState } from '../../src/model/state.js';

/** The state a log describes, built with immer alone. */
export function immerFold(log: Iterable<{ readonly type: string }>): SimState {
  const evolve = evolver();
  let state = emptyState();
  for (const event of log) {
    if (event.type === 'SimulationStarted' || event.type === 'ClockAdvanced') continue;
    state = produce(state, (draft) => evolve(draft, event as DomainEvent));
  }
  return state;
}
