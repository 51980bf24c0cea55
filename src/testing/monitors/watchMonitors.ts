/**
 * Runs monitors over events: offline over a log (`checkLog`) or online over a simulation's
 * `events$` (`watchMonitors`). Either way the first violation is kept with its virtual time and the
 * events around it.
 */
import { historySoFar } from '../../core/historySoFar.js';
import type { Simulation } from '../../simulation/simulation.js';
import type { SimEvent } from '../../model/events.js';
import { defaultMonitors } from './defaultMonitors.js';
import type { Monitor } from './monitor.js';

/** The first violation a set of monitors saw. */
export interface MonitorViolation {
  readonly monitor: string;
  readonly message: string;
  /** Virtual time of the event that showed it (the stream's end for a `finish` report). */
  readonly at: number;
  /** Log position of that event (`undefined` for a `finish` report). */
  readonly seq: number | undefined;
  /** Up to `context` events before it, the event itself, and up to `context` after it. */
  readonly around: readonly SimEvent[];
}

/** Options of `checkLog` and `watchMonitors`. */
export interface MonitorOptions {
  /** Events kept on each side of a violation (default 5). */
  readonly context?: number;
}

/** Thrown by `assertClean` and `assertLogClean`. */
export class MonitorViolationError extends Error {
  constructor(readonly violation: MonitorViolation) {
    super(formatViolation(violation));
    this.name = 'MonitorViolationError';
  }
}

/** A violation as a few readable lines: monitor, time, message and the events around it. */
export function formatViolation(violation: MonitorViolation): string {
  const lines = [
    `${violation.monitor}: ${violation.message}`,
    `  at ${new Date(violation.at).toISOString()}${violation.seq === undefined ? ' (end of run)' : ` (event ${violation.seq})`}`,
    '  events around it:',
  ];
  for (const event of violation.around) {
    const mark = event.seq === violation.seq ? '>' : ' ';
    const { type, at, seq, ...rest } = event;
    lines.push(
      `  ${mark} #${seq} ${new Date(at).toISOString()} ${type} ${JSON.stringify(rest)}`.slice(
        0,
        200,
      ),
    );
  }
  return lines.join('\n');
}

/** Feeds events to monitors and keeps the first violation with its surroundings. */
class MonitorRun {
  #violation: { value: MonitorViolation; around: SimEvent[]; after: number } | undefined;
  /** The last `context` events, as a ring: `#next` is where the next one goes once it is full. */
  readonly #before: SimEvent[] = [];
  #next = 0;
  readonly #context: number;
  /** How many events `#before` keeps: the whole number of `context` (all of them for NaN). */
  readonly #keep: number;

  constructor(
    readonly monitors: readonly Monitor[],
    options: MonitorOptions,
  ) {
    this.#context = options.context ?? 5;
    this.#keep = Number.isNaN(this.#context) ? Infinity : Math.max(0, Math.floor(this.#context));
  }

  /** The last `context` events, oldest first. */
  #lastEvents(): SimEvent[] {
    const ring = this.#before;
    return [...ring.slice(this.#next), ...ring.slice(0, this.#next)];
  }

  get violation(): MonitorViolation | undefined {
    const found = this.#violation;
    return found && { ...found.value, around: [...found.around] };
  }

  observe(event: SimEvent): void {
    if (this.#violation !== undefined) {
      if (this.#violation.after < this.#context) {
        this.#violation.around.push(event);
        this.#violation.after += 1;
      }
      return;
    }
    for (const monitor of this.monitors) {
      const message = monitor.observe(event);
      if (message !== undefined) {
        const value = { monitor: monitor.name, message, at: event.at, seq: event.seq, around: [] };
        this.#violation = { value, around: [...this.#lastEvents(), event], after: 0 };
        return;
      }
    }
    const ring = this.#before;
    if (ring.length < this.#keep) ring.push(event);
    else if (this.#keep > 0) {
      ring[this.#next] = event;
      this.#next = this.#next + 1 === this.#keep ? 0 : this.#next + 1;
    }
  }

  finish(at: number): MonitorViolation | undefined {
    if (this.#violation !== undefined) return this.violation;
    for (const monitor of this.monitors) {
      const message = monitor.finish?.(at);
      if (message !== undefined) {
        const value = { monitor: monitor.name, message, at, seq: undefined, around: [] };
        this.#violation = { value, around: this.#lastEvents(), after: this.#context };
        break;
      }
    }
    return this.violation;
  }
}

/** Runs `monitors` over a whole log; returns the first violation, or `undefined` when clean. */
export function checkLog(
  events: Iterable<SimEvent>,
  monitors: readonly Monitor[] = defaultMonitors(),
  options: MonitorOptions = {},
): MonitorViolation | undefined {
  const run = new MonitorRun(monitors, options);
  let lastAt = 0;
  for (const event of events) {
    run.observe(event);
    lastAt = event.at;
  }
  return run.finish(lastAt);
}

/** Like `checkLog`, but throws a `MonitorViolationError` on a violation. */
export function assertLogClean(
  events: Iterable<SimEvent>,
  monitors?: readonly Monitor[],
  options?: MonitorOptions,
): void {
  const violation = checkLog(events, monitors, options);
  if (violation !== undefined) throw new MonitorViolationError(violation);
}

/** A live watch over a simulation (see `watchMonitors`). */
export interface MonitorWatch {
  /** The first violation so far (its `around` grows as later events arrive). */
  readonly violation: MonitorViolation | undefined;
  /**
   * Stops watching; runs the monitors' end-of-run checks at the current virtual time. Throws what a
   * monitor threw while watching, if one did (it stopped the watch there).
   */
  stop(): MonitorViolation | undefined;
  /** Stops watching and throws a `MonitorViolationError` if anything was violated. */
  assertClean(): void;
}

/**
 * Watches `sim.events$` from now on, after feeding the monitors the log written so far, so a watch
 * started in the middle of a run knows every compute and branch (and reports a violation already
 * in that history). A simulation that keeps no log (`log: 'none'` or a sink) can be watched from
 * its start only: past its first event, the history the monitors need is gone, and the watch is
 * refused with `LogUnavailableError`.
 */
export function watchMonitors(
  sim: Simulation,
  monitors: readonly Monitor[] = defaultMonitors(),
  options: MonitorOptions = {},
): MonitorWatch {
  const run = new MonitorRun(monitors, options);
  for (const event of historySoFar(sim.log, 'watchMonitors')) run.observe(event);
  // A monitor that throws while the simulation runs cannot throw into it (the stream would report
  // the error later, out of band, and the run go on): the watch stops looking and `stop` throws it.
  let failure: { readonly error: unknown } | undefined;
  const subscription = sim.events$.subscribe((event) => {
    if (failure !== undefined) return;
    try {
      run.observe(event);
    } catch (error) {
      failure = { error };
    }
  });
  let ended: MonitorViolation | undefined;
  let stopped = false;
  const stop = () => {
    if (!stopped) {
      stopped = true;
      subscription.unsubscribe();
      if (failure === undefined) ended = run.finish(sim.now());
    }
    if (failure !== undefined) throw failure.error;
    return ended;
  };
  return {
    get violation() {
      return stopped ? ended : run.violation;
    },
    stop,
    assertClean() {
      const violation = stop();
      if (violation !== undefined) throw new MonitorViolationError(violation);
    },
  };
}
