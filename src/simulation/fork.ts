/**
 * Forking a run at an instant: a new engine whose log up to that instant is the original's, byte for
 * byte, and which from there runs under a settings change, driven by what the original's log repeats.
 */
import { formatInstant, tryParseInstant, type Instant } from '../core/instant.js';
import { resolveProfile, type Profile } from '../domain/profile.js';
import type { Rejection } from '../domain/rejection.js';
import { Engine } from '../engine/engine.js';
import type { EngineOptions } from '../engine/engineOptions.js';
import { LogFormatError, LogUnavailableError } from '../engine/errors.js';
import type { EventLog } from '../engine/eventLog.js';
import type { LoggedEvent } from '../engine/loggedEvent.js';
import type { Command } from '../model/commands.js';
import { createControlPlane } from '../model/controlPlane.js';
import type { DomainEvent, SimEvent } from '../model/events.js';
import { settingsChangeAt } from '../model/settingsChange.js';
import type { SimState } from '../model/state.js';
import type { TimerCommand } from '../model/timers.js';

export type { SettingsChange } from '../model/settingsChange.js';

/** Options of a fork. */
export interface ForkOptions extends Pick<
  EngineOptions,
  'snapshotEvery' | 'stepLimit' | 'trackedEvents'
> {
  /** How far the fork runs (default: as far as the original has run). */
  readonly until?: Instant;
}

/** What a fork reads of the run it forks: its log, its clock and its past states. */
export interface ForkSource {
  readonly log: EventLog<SimEvent>;
  now(): number;
  stateAt(instant: number): SimState;
}

/** A forked engine and the profile in force at its end. */
export interface Forked {
  readonly engine: Engine<SimState, Command, DomainEvent, TimerCommand, Rejection>;
  readonly profile: Profile;
}

/**
 * Forks `source` at `at` under `change` (see `SettingsChange`) and runs the fork to `until`.
 *
 * A change that changes nothing gives the original's own log up to `until` (every call it made
 * included). Otherwise the fork replays the log up to `at`, records the change at `at`, and from
 * there runs the control plane's own work, the workloads (those attached after `at` attached again
 * at the same instants, with the same specs) and the original's clock marks; sessions come from the
 * streams keyed by seed, workload and session number, so the same ones arrive. Requests and
 * connections the original made by hand after `at` are not repeated. Throws a `RangeError` naming
 * the problem for an instant outside the run or a change that cannot apply at `at`, and a
 * `LogUnavailableError` when the run keeps no log in memory.
 */
export function forkRun(
  source: ForkSource,
  atInput: Instant,
  change: unknown,
  options: ForkOptions = {},
): Forked {
  const { log } = source;
  if (!log.keepsEvents)
    throw new LogUnavailableError(
      "fork: a fork replays the run's log, and this simulation keeps none in memory (log: 'none', " +
        'or streamed to a file): keep the log in memory, or fork the file: ' +
        'Simulation.fromLog(LogFile.open(path).events()).fork(at, change)',
    );
  const header = log.get(0);
  if (header?.type !== 'SimulationStarted') throw new LogFormatError('the log has no header', 1);
  const at = instantOf(atInput, 'at');
  const end = source.now();
  if (at < header.at || at > end)
    throw new RangeError(
      `fork: ${formatInstant(at)} is outside the run (${formatInstant(header.at)} to ${formatInstant(end)})`,
    );
  const until = options.until === undefined ? end : instantOf(options.until, 'until');
  if (until < at)
    throw new RangeError(
      `fork: until ${formatInstant(until)} is before the fork point ${formatInstant(at)}`,
    );
  const headerProfile = resolveProfile(header.config);
  if (!headerProfile.ok) throw new LogFormatError(`the header's profile is invalid`, 1);
  const state = source.stateAt(at);
  const decided = settingsChangeAt(state, state.profile ?? headerProfile.value, change, at);
  if (!decided.ok) throw new RangeError(`fork at ${formatInstant(at)}: ${decided.error}`);

  const { until: _until, ...tuning } = options;
  const controlPlane = createControlPlane(headerProfile.value);
  let engine: Forked['engine'];
  if (decided.value === undefined) {
    engine = Engine.replay(controlPlane, log.range(0, log.firstAfter(until)), tuning);
  } else {
    const cut = log.firstAfter(at);
    const stamped = { ...decided.value, at, seq: cut } as LoggedEvent;
    engine = Engine.replay(controlPlane, prefixThen(log, cut, stamped), tuning);
    repeatInputs(engine, log, cut, until);
  }
  if (engine.now < until) engine.advanceTo(until);
  return { engine, profile: engine.live.profile ?? headerProfile.value };
}

/** Events `0 <= seq < cut` of `log`, then `last`. */
function* prefixThen(log: EventLog<SimEvent>, cut: number, last: LoggedEvent) {
  yield* log.range(0, cut);
  yield last;
}

/**
 * Runs the fork through the original's inputs from `cut` up to `until` that its log can repeat: the
 * clock's stops and the workloads attached.
 */
function repeatInputs(
  engine: Forked['engine'],
  log: EventLog<SimEvent>,
  cut: number,
  until: number,
): void {
  for (const event of log.range(cut, log.firstAfter(until))) {
    if (event.type !== 'ClockAdvanced' && event.type !== 'WorkloadAttached') continue;
    if (event.at > engine.now) engine.advanceTo(event.at);
    // A workload on a compute the fork does not have (made by a request not repeated) is refused.
    if (event.type === 'WorkloadAttached')
      engine.execute({ type: 'RepeatWorkload', spec: event.spec });
  }
}

function instantOf(input: Instant, what: string): number {
  const parsed = tryParseInstant(input);
  if (!parsed.ok) throw new RangeError(`fork: ${what}: ${parsed.error}`);
  return parsed.value;
}
