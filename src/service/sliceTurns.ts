/**
 * Turns of the event loop shared by every sliced run of the process (clock moves, reports, views):
 * one slice goes per turn, the runs taking turns first come first served, so whatever else waits
 * (a request, a stream to feed) waits for one slice at most, however many runs are under way. Each
 * run handing the loop back by itself let all of them run a slice in the same turn: with a clock
 * move, a report and a view, a request waited three slices.
 *
 * Between two slices the loop also turns a few times with nothing to run (microseconds each):
 * node (libuv 1.46) accepts one new connection per turn, so with a slice in every turn a burst of
 * connections (200 readers of the event stream at once) was taken at ~65 a second, and a client
 * connecting behind it waited seconds before its first request was read.
 */

/** Turns with nothing to run between two slices. */
const IDLE_TURNS = 3;
/** Runs waiting for a turn, in the order they asked. */
const waiting: (() => void)[] = [];
/** Whether a turn is scheduled already. */
let scheduled = false;

/** Runs `then` at the next turn of the event loop (setImmediate where the runtime has it). */
function nextTurn(then: () => void): void {
  if (typeof setImmediate === 'function') setImmediate(then);
  else setTimeout(then, 0);
}

/**
 * Schedules the next slice's turn, after the idle ones: it lets the first run waiting go, and
 * schedules the turn after it.
 */
function scheduleTurn(): void {
  scheduled = true;
  let idle = IDLE_TURNS;
  const turn = () => {
    if (idle-- > 0) {
      nextTurn(turn);
      return;
    }
    scheduled = false;
    const next = waiting.shift();
    // Scheduled before the run goes: its slice runs in this turn, the next run's after it.
    if (waiting.length > 0) scheduleTurn();
    next?.();
  };
  nextTurn(turn);
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
