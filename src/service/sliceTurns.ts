/**
 * Turns of the event loop shared by every sliced run of the process (clock moves, reports, views):
 * one slice goes per turn, the runs taking turns first come first served, so whatever else waits
 * (a request, a stream to feed) waits for one slice at most, however many runs are under way. Each
 * run handing the loop back by itself let all of them run a slice in the same turn: with a clock
 * move, a report and a view, a request waited three slices.
 */

/** Runs waiting for a turn, in the order they asked. */
const waiting: (() => void)[] = [];
/** Whether a turn is scheduled already. */
let scheduled = false;

/** Schedules the next turn: it lets the first run waiting go, and schedules the one after. */
function scheduleTurn(): void {
  scheduled = true;
  const turn = () => {
    scheduled = false;
    const next = waiting.shift();
    // Scheduled before the run goes: its slice runs in this turn, the next run's in the next.
    if (waiting.length > 0) scheduleTurn();
    next?.();
  };
  if (typeof setImmediate === 'function') setImmediate(turn);
  else setTimeout(turn, 0);
}

/**
 * Resolves at a turn of the event loop of this run's own: once every run that asked before it has
 * had its turn, and other work (I/O, timers) has had a chance in between each.
 */
export function nextSliceTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!scheduled) scheduleTurn();
  });
}
