/**
 * The engine floor: the typed-array binary heap on (due, seq) running the hold model, the least any
 * agenda must do per event. Benchmarks print their rates as ratios to it, measured in the same run.
 */
import { HOLD_EVENTS, LIVE_TIMERS, increment } from './holdModel.js';
import { OrderedHeap } from './orderedHeap.js';

/** One hold-model run on the (due, seq) heap; returns the events processed. */
export function floorRun(): number {
  const heap = new OrderedHeap(LIVE_TIMERS + 1);
  let step = 0;
  for (let i = 0; i < LIVE_TIMERS; i++) heap.push(increment(step++));
  for (let i = 0; i < HOLD_EVENTS; i++) heap.push(heap.pop() + increment(step++));
  return HOLD_EVENTS;
}
