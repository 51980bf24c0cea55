/**
 * An independent oracle for published state: folds a simulation's log through immer's `produce`,
 * one event at a time, so a missing `touches` declaration shows up as a difference.
 */
import { produce } from 'immer';
import type { DomainEvent, SimState, Simulation } from '../../src/index.js';
import { evolve } from '../../src/model/evolve.js';
import { emptyState } from '../../src/model/state.js';

/** The state the log describes, built with immer alone. */
export function immerFold(sim: Simulation): SimState {
  let state = emptyState();
  for (const event of sim.log) {
    if (event.type === 'SimulationStarted' || event.type === 'ClockAdvanced') continue;
    state = produce(state, (draft) => evolve(draft, event as DomainEvent));
  }
  return state;
}
