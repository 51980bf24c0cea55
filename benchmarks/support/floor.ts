/**
 * The engine floors: typed-array binary heaps running the hold model. The one on (due, seq) is the
 * least any agenda must do per event; benchmarks print their rates as ratios to it, measured in the
 * same run. The strict floor orders by due alone (not a valid agenda; printed for honesty).
 */
import { HOLD_EVENTS, LIVE_TIMERS, increment } from './holdModel.js';
import { OrderedHeap } from './orderedHeap.js';
import { TypedArrayHeap } from './typedArrayHeap.js';

/** The hold model on one heap; returns the events processed. */
function holdRun(heap: { push(due: number): void; pop(): number }): number {
  let step = 0;
  for (let i = 0; i < LIVE_TIMERS; i++) heap.push(increment(step++));
  for (let i = 0; i < HOLD_EVENTS; i++) heap.push(heap.pop() + increment(step++));
  return HOLD_EVENTS;
}

/** One hold-model run on the (due, seq) heap. */
export function floorRun(): number {
  return holdRun(new OrderedHeap(LIVE_TIMERS + 1));
}

/** One hold-model run on the heap ordered by due alone. */
export function strictFloorRun(): number {
  return holdRun(new TypedArrayHeap(LIVE_TIMERS + 1));
}
