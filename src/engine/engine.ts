/**
 * The generic simulation engine: owns the virtual clock, the agenda, the event log and the state,
 * and drives a Decider. The hot loop decides and evolves on a private mutable working state; an
 * immutable, structurally shared snapshot is published when someone reads `state` (or subscribes to
 * `state$`), and every `snapshotEvery` events for `stateAt`. So neither the hot loop nor a stream of
 * requests pays a `produce`, a proxy trap or a copy of a large record per event or per call.
 */
import type { Draft } from 'immer';
import { BehaviorSubject, type Observable } from 'rxjs';
import { parseDuration } from '../core/duration.js';
import { LAST_INSTANT } from '../core/instant.js';
import { err, type Result } from '../core/result.js';
import { Agenda } from './agenda.js';
import { CommandContext } from './commandContext.js';
import type { Decider } from './decider.js';
import { DirtyPaths } from './dirtyPaths.js';
import {
  checkStateAt,
  checkTarget,
  iso,
  stepLimitError,
  stillFalseError,
  unsettledError,
} from './engineChecks.js';
import {
  DEFAULT_IDLE_WITHIN,
  DEFAULT_SNAPSHOT_EVERY,
  DEFAULT_STEP_LIMIT,
  DEFAULT_TRACKED_EVENTS,
  type EngineOptions,
  type RunOptions,
} from './engineOptions.js';
import { foldFromSnapshot, replayHeader } from './engineReplay.js';
import { LogFormatError, ReentrancyError } from './errors.js';
import { EventFanout } from './eventFanout.js';
import { EventLog } from './eventLog.js';
import {
  LOG_FORMAT,
  type EngineEvent,
  type LoggedEvent,
  type SimulationStarted,
} from './loggedEvent.js';
import { frozenCopy, publishSnapshot } from './publishSnapshot.js';
import { reconcileSnapshot } from './reconcileSnapshot.js';
import { SnapshotIndex } from './snapshotIndex.js';

/** Runs a Decider over virtual time with an append-only log. */
export class Engine<S, C, E extends LoggedEvent, T, R> {
  readonly #decider: Decider<S, C, E, T, R>;
  readonly #agenda = new Agenda<T>();
  readonly #log: EventLog<E | EngineEvent>;
  readonly #snapshots: SnapshotIndex<S>;
  readonly #events$ = new EventFanout<E | EngineEvent>();
  readonly #state$: BehaviorSubject<S>;
  readonly #stepLimit: number;
  /** Events between publications in long runs: the snapshot spacing, which grows as runs get long. */
  #publishEvery: number;
  readonly #context: CommandContext;
  readonly #dirty = new DirtyPaths();
  readonly #trackedEvents: number;
  readonly seed: number;
  readonly start: number;
  #now: number;
  /** The private mutable state decide reads and evolve changes; never handed out. */
  readonly #working: S;
  /** The latest immutable snapshot. */
  #state: S;
  #sinceSnapshot = 0;
  /** Record-only events in the log: the random streams' position is the log length minus these. */
  #recordOnly = 0;
  #busy = false;
  readonly #arm = (due: number, timer: T, background?: boolean, key?: string): void => {
    this.#agenda.push(due, timer, background === true, key);
  };

  constructor(decider: Decider<S, C, E, T, R>, options: EngineOptions) {
    if (!Number.isSafeInteger(options.seed))
      throw new RangeError(`seed must be a safe integer, got ${String(options.seed)}`);
    if (!Number.isSafeInteger(options.start) || options.start > LAST_INSTANT)
      throw new RangeError(
        `start must be whole epoch ms up to ${iso(LAST_INSTANT)}, got ${String(options.start)}`,
      );
    const stepLimit = options.stepLimit ?? DEFAULT_STEP_LIMIT;
    if (!Number.isSafeInteger(stepLimit) || stepLimit < 1)
      throw new RangeError(`stepLimit must be a whole number ≥ 1, got ${String(stepLimit)}`);
    this.#decider = decider;
    this.#log = new EventLog(options.log ?? 'memory');
    this.seed = options.seed;
    this.start = options.start;
    this.#now = options.start;
    this.#stepLimit = stepLimit;
    const trackedEvents = options.trackedEvents ?? DEFAULT_TRACKED_EVENTS;
    if (!Number.isSafeInteger(trackedEvents) || trackedEvents < 0)
      throw new RangeError(
        `trackedEvents must be a whole number ≥ 0, got ${String(trackedEvents)}`,
      );
    this.#trackedEvents = trackedEvents;
    this.#snapshots = new SnapshotIndex(options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY);
    // Periodic publishes only feed `stateAt`'s snapshots, which need the events kept.
    this.#publishEvery = this.#log.keepsEvents ? this.#snapshots.spacing : Infinity;
    this.#working = decider.initialState();
    this.#state = frozenCopy(this.#working);
    this.#state$ = new BehaviorSubject(this.#state);
    this.#context = new CommandContext(options.seed);
    const header: SimulationStarted = {
      type: 'SimulationStarted',
      seed: options.seed,
      config: options.config,
      format: LOG_FORMAT,
      at: options.start,
      seq: 0,
    };
    this.#log.append(header);
    this.#snapshots.offer(0, options.start, this.#state);
  }

  /** Virtual time, epoch milliseconds. */
  get now(): number {
    return this.#now;
  }

  /** Immutable snapshot of the current state (read during a step: the state before the step). */
  get state(): S {
    if (!this.#busy) this.#publish();
    return this.#state;
  }

  /**
   * The live working state, for readers that copy what they need at once and keep no reference (the
   * route handlers building JSON). It changes under you and must never be written to.
   */
  get live(): S {
    return this.#working;
  }

  /** The event log, header first. */
  get log(): EventLog<E | EngineEvent> {
    return this.#log;
  }

  /** Every event as it is appended, synchronously and in order. */
  get events$(): Observable<E | EngineEvent> {
    return this.#events$.observable;
  }

  /** The state after each public call (replays the latest one to a new subscriber). */
  get state$(): Observable<S> {
    const current = this.state;
    if (this.#state$.value !== current) this.#state$.next(current);
    return this.#state$.asObservable();
  }

  /** Number of timers waiting, and how many of them are foreground work. */
  get pending(): {
    readonly timers: number;
    readonly foreground: number;
    readonly nextDue: number;
  } {
    return {
      timers: this.#agenda.size,
      foreground: this.#agenda.foregroundCount,
      nextDue: this.#agenda.peekDue(),
    };
  }

  /** Decides and applies one command at the current virtual time. */
  execute(command: C): Result<readonly E[], R> {
    return this.#publicCall(() => this.#apply(command));
  }

  /** Runs every timer due up to and including `t`, then sets the clock to `t`. */
  advanceTo(t: number, options?: RunOptions): void {
    checkTarget(t, 'advanceTo', this.#now);
    this.#publicCall(() => {
      const limit = options?.stepLimit ?? this.#stepLimit;
      if (!this.#fireToward(t, limit))
        throw stepLimitError('advance', limit, this.#now, this.#agenda.size);
    });
  }

  /**
   * Fires at most `maxSteps` of the timers due up to `t`, and sets the clock to `t` once none is left;
   * returns whether `t` was reached. Lets a caller that must stay responsive (a server) run a long
   * advance in slices. Slicing changes nothing in the log: a slice that stops short leaves the clock at
   * the last timer it fired and records no clock mark.
   */
  advanceToward(t: number, maxSteps: number): boolean {
    checkTarget(t, 'advanceToward', this.#now);
    let reached = false;
    this.#publicCall(
      () => void (reached = this.#fireToward(t, maxSteps)),
      () => reached,
    );
    return reached;
  }

  /**
   * One slice of `runUntilIdle`: fires at most `maxSteps` foreground-or-due timers. Returns `idle`
   * when only background work is left, `deadline` when the next timer is due after `deadline` with
   * foreground work still pending (work that never settles), and `more` when the slice ran out.
   */
  runTowardIdle(deadline: number, maxSteps: number): 'idle' | 'deadline' | 'more' {
    let outcome: 'idle' | 'deadline' | 'more' = 'more';
    this.#publicCall(
      () => void (outcome = this.#fireTowardIdle(deadline, maxSteps)),
      // Like a slice of an advance, a slice that stops short records no clock mark: the log is
      // the same however the run was sliced.
      () => outcome !== 'more',
    );
    return outcome;
  }

  /**
   * Fires timers one at a time until `predicate(state)` holds, checking it before the first timer and
   * after every timer that changed state. Throws when no pending work is left or past the step guard.
   */
  runUntilState(predicate: (state: S) => boolean, options?: RunOptions): void {
    this.#publicCall(() => {
      const limit = options?.stepLimit ?? this.#stepLimit;
      let steps = 0;
      this.#publish();
      while (!predicate(this.#state)) {
        const waiting =
          options?.background === true ? this.#agenda.size : this.#agenda.foregroundCount;
        if (waiting === 0) throw stillFalseError(this.#agenda.size, this.#now);
        if (++steps > limit) throw stepLimitError('runUntil', limit, this.#now, this.#agenda.size);
        if (this.#fireNext() > 0) this.#publish();
      }
    });
  }

  /**
   * Fires timers until only background work (periodic checks) is pending. The clock stops at the
   * last timer fired; it does not jump to the next background timer.
   */
  runUntilIdle(options?: RunOptions): void {
    const within = parseDuration(options?.within ?? DEFAULT_IDLE_WITHIN);
    this.#publicCall(() => {
      const limit = options?.stepLimit ?? this.#stepLimit;
      const outcome = this.#fireTowardIdle(this.#now + within, limit);
      if (outcome === 'deadline')
        throw unsettledError(within, this.#now, this.#agenda.foregroundCount);
      if (outcome === 'more')
        throw stepLimitError('runUntilIdle', limit, this.#now, this.#agenda.size);
    });
  }

  /** State as it stood at virtual time `t` (after every event at `t`), from a snapshot plus replay. */
  stateAt(t: number): S {
    checkStateAt(t, this.start, this.#now, this.#log);
    const end = this.#log.firstAfter(t);
    if (end === this.#log.length) return this.state;
    return foldFromSnapshot(this.#decider, this.#log, this.#snapshots, t, end);
  }

  /**
   * Rebuilds an engine from a log (header first). The result's state, agenda and random streams
   * equal the original's as of its last event, so it continues exactly as the original would.
   */
  static replay<S, C, E extends LoggedEvent, T, R>(
    decider: Decider<S, C, E, T, R>,
    events: Iterable<LoggedEvent>,
    options: Pick<EngineOptions, 'snapshotEvery' | 'stepLimit' | 'trackedEvents' | 'log'> = {},
  ): Engine<S, C, E, T, R> {
    const iterator = events[Symbol.iterator]();
    const header = replayHeader(iterator);
    const engine = new Engine(decider, {
      seed: header.seed as number,
      start: header.at as number,
      config: header.config,
      ...options,
    });
    engine.#publicCall(() => {
      for (let next = iterator.next(); next.done !== true; next = iterator.next()) {
        engine.#replayOne(next.value as E);
      }
    });
    return engine;
  }

  #replayOne(event: E): void {
    const line = this.#log.length + 1;
    if (event.seq !== this.#log.length) {
      throw new LogFormatError(
        `event ${event.type} has seq ${event.seq} where ${this.#log.length} was expected`,
        line,
      );
    }
    if (!Number.isSafeInteger(event.at) || event.at < this.#now) {
      throw new LogFormatError(
        `event ${event.type} at ${String(event.at)} goes back in time`,
        line,
      );
    }
    this.#now = event.at;
    this.#agenda.discardBefore(event.at);
    if (event.type === 'ClockAdvanced') {
      this.#log.append(event as LoggedEvent as EngineEvent);
      return;
    }
    try {
      this.#record(event);
    } catch (error) {
      throw new LogFormatError(
        `event ${event.type} could not be applied: ${error instanceof Error ? error.message : String(error)}`,
        line,
      );
    }
  }

  /** Runs a public call; `markClock` says whether to record a clock mark after it (default: yes). */
  #publicCall<V>(body: () => V, markClock: () => boolean = always): V {
    if (this.#busy) {
      throw new ReentrancyError(
        'the simulation was called from inside a step (an events$ or state$ subscriber may observe, not drive)',
      );
    }
    // A log that can take no more events (closed, or its sink failed) refuses before anything
    // is decided, so the state never runs ahead of the log.
    const refused = this.#log.failure;
    if (refused !== undefined) throw refused;
    this.#busy = true;
    let value: V;
    try {
      value = body();
    } finally {
      try {
        if (markClock()) this.#markClock();
      } finally {
        this.#busy = false;
      }
      if (this.#state$.observed) this.#state$.next(this.state);
      else if (this.#sinceSnapshot >= this.#publishEvery) this.#publish();
    }
    // A sink that failed during the call: the state has every event, the file stops short.
    const failed = this.#log.failure;
    if (failed !== undefined) throw failed;
    return value;
  }

  /**
   * Fires at most `maxSteps` of the timers due up to `t`, then, if none is left, sets the clock to
   * `t`; returns whether it got there. The loop of `advanceTo` and of its slices.
   */
  #fireToward(t: number, maxSteps: number): boolean {
    for (let steps = 0; this.#agenda.peekDue() <= t; steps++) {
      if (steps >= maxSteps) return false;
      this.#fireNext();
    }
    this.#now = t;
    return true;
  }

  /**
   * Fires at most `maxSteps` timers while foreground work is pending and due by `deadline`: the loop
   * of `runUntilIdle` and of its slices.
   */
  #fireTowardIdle(deadline: number, maxSteps: number): 'idle' | 'deadline' | 'more' {
    for (let steps = 0; ; steps++) {
      if (this.#agenda.foregroundCount === 0) return 'idle';
      if (this.#agenda.peekDue() > deadline) return 'deadline';
      if (steps >= maxSteps) return 'more';
      this.#fireNext();
    }
  }

  /** Fires the earliest timer; returns how many events it produced. */
  #fireNext(): number {
    this.#now = this.#agenda.peekDue();
    const timer = this.#agenda.popTimer() as T;
    const result = this.#apply(this.#decider.commandForTimer(timer));
    return result.ok ? result.value.length : 0;
  }

  #apply(command: C): Result<readonly E[], R> {
    this.#context.begin(this.#now, this.#log.length, this.#log.length - this.#recordOnly);
    const decided = this.#decider.decide(this.#working, command, this.#context);
    if (!decided.ok) {
      if (decided.records === undefined || decided.records.length === 0) return decided;
      // A refusal marks the clock like any call that appends nothing, and its records follow the
      // mark: where they would land if recorded by a call of their own.
      this.#markClock();
      this.#stampAll(decided.records);
      return err(decided.error);
    }
    this.#stampAll(decided.value);
    if (this.#sinceSnapshot >= this.#publishEvery) this.#publish();
    return decided as unknown as Result<readonly E[], R>;
  }

  /** Stamps decided events with the current time and their sequence numbers, and records them. */
  #stampAll(events: readonly unknown[]): void {
    for (const event of events as { at: number; seq: number }[]) {
      event.at = this.#now;
      event.seq = this.#log.length;
      this.#record(event as unknown as E);
    }
  }

  #record(event: E): void {
    this.#log.append(event);
    if (this.#decider.isRecordOnly?.(event) === true) this.#recordOnly++;
    if (this.#sinceSnapshot < this.#trackedEvents)
      this.#decider.evolve(this.#working as Draft<S>, event, this.#dirty.touch);
    else {
      this.#dirty.touchAll();
      this.#decider.evolve(this.#working as Draft<S>, event);
    }
    this.#sinceSnapshot++;
    if (this.#events$.observed) this.#events$.emit(event);
    this.#decider.armTimers(event, this.#working, this.#arm);
  }

  /** Records that the clock moved past the last event, so a replay ends at the same time. */
  #markClock(): void {
    if (this.#now <= this.#log.lastAt) return;
    const marker: EngineEvent = { type: 'ClockAdvanced', at: this.#now, seq: this.#log.length };
    this.#log.append(marker);
    if (this.#events$.observed) this.#events$.emit(marker);
  }

  /** Publishes the working state as the next immutable snapshot, if anything changed. */
  #publish(): void {
    if (!this.#dirty.any) return;
    const dirty = this.#dirty.take();
    const walked = { entries: 0 };
    this.#state =
      dirty === undefined
        ? reconcileSnapshot(this.#state, this.#working, walked)
        : publishSnapshot(this.#state, this.#working, dirty);
    if (this.#log.keepsEvents) {
      this.#snapshots.offer(this.#log.length - 1, this.#log.lastAt, this.#state);
      // A walk of a large state (a month of a fleet's operations) costs as much as many events, and
      // its copies outlive several young-generation collections: two events per entry walked between
      // periodic publishes keep them a small share of a run.
      this.#publishEvery = Math.max(this.#snapshots.spacing, 2 * walked.entries);
    }
    this.#sinceSnapshot = 0;
  }
}

const always = (): boolean => true;
