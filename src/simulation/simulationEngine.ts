/**
 * The control-plane engine a simulation drives, built one of two ways: new from a simulation's
 * options (the profile resolved, the defaults filled in), or replayed from a log whose header
 * carries the profile.
 */
import { parseInstant } from '../core/instant.js';
import {
  asOverrides,
  resolveProfile,
  type Profile,
  type ProfileChoice,
} from '../domain/profile.js';
import type { Rejection } from '../domain/rejection.js';
import { Engine } from '../engine/engine.js';
import { LogFormatError } from '../engine/errors.js';
import type { LoggedEvent } from '../engine/loggedEvent.js';
import type { Command } from '../model/commands.js';
import { createControlPlane } from '../model/controlPlane.js';
import { DOMAIN_EVENT_TYPES } from '../model/eventMeanings.js';
import type { DomainEvent } from '../model/events.js';
import type { SimState } from '../model/state.js';
import type { TimerCommand } from '../model/timers.js';
import { DEFAULT_START, type SimulationOptions } from './simulationOptions.js';

/** The generic engine bound to the control plane's state, commands, events, timers and refusals. */
export type ControlPlaneEngine = Engine<SimState, Command, DomainEvent, TimerCommand, Rejection>;

/** An engine and the profile in force in it. */
export interface BuiltEngine {
  readonly engine: ControlPlaneEngine;
  readonly profile: Profile;
}

type EngineTuning = Pick<
  SimulationOptions,
  'snapshotEvery' | 'stepLimit' | 'trackedEvents' | 'log'
>;

/** A new engine as `options` ask for it; throws a `RangeError` for a profile that cannot be. */
export function newEngine(options: SimulationOptions): BuiltEngine {
  const profile = resolveProfile(withRateLimits(options.profile ?? {}, options.rateLimits));
  if (!profile.ok) throw new RangeError(profile.error);
  const engine = new Engine(createControlPlane(profile.value), {
    seed: options.seed ?? 1,
    start: parseInstant(options.start ?? DEFAULT_START),
    config: profile.value,
    ...engineTuning(options),
  });
  return { engine, profile: profile.value };
}

/**
 * The engine `log` rebuilds (header first), under the profile in force at its end; throws
 * `LogFormatError` naming the line for a log that is not one of a simulation's.
 */
export function replayedEngine(log: Iterable<LoggedEvent>, options: EngineTuning): BuiltEngine {
  const iterator = log[Symbol.iterator]();
  const first = iterator.next();
  const header = (first.done === true ? undefined : first.value) as
    { type?: unknown; config?: unknown } | undefined;
  if (header?.type !== 'SimulationStarted') {
    throw new LogFormatError('the log must start with SimulationStarted', 1);
  }
  const profile = resolveProfile(header.config);
  if (!profile.ok) throw new LogFormatError(`the header's profile is invalid: ${profile.error}`, 1);
  const engine = Engine.replay(
    createControlPlane(profile.value),
    knownEvents(header as LoggedEvent, iterator),
    engineTuning(options),
  );
  // A log whose settings changed (a fork's) continues under the profile it changed to.
  return { engine, profile: engine.live.profile ?? profile.value };
}

const KNOWN_TYPES: ReadonlySet<string> = new Set<string>([...DOMAIN_EVENT_TYPES, 'ClockAdvanced']);

/** The header, then every further event, refusing unknown types as they come (one pass, no copy). */
function* knownEvents(header: LoggedEvent, rest: Iterator<LoggedEvent>): Generator<LoggedEvent> {
  yield header;
  let line = 1;
  for (let next = rest.next(); next.done !== true; next = rest.next()) {
    line++;
    const type = (next.value as { type?: unknown }).type;
    if (typeof type !== 'string' || !KNOWN_TYPES.has(type)) {
      throw new LogFormatError(`unknown event type ${JSON.stringify(type)}`, line);
    }
    yield next.value;
  }
}

function engineTuning(options: EngineTuning) {
  return {
    ...(options.log === undefined ? {} : { log: options.log }),
    ...(options.snapshotEvery === undefined ? {} : { snapshotEvery: options.snapshotEvery }),
    ...(options.stepLimit === undefined ? {} : { stepLimit: options.stepLimit }),
    ...(options.trackedEvents === undefined ? {} : { trackedEvents: options.trackedEvents }),
  };
}

/** The profile choice with rate limits switched on or off by the `rateLimits` option, if given. */
function withRateLimits(choice: ProfileChoice, rateLimits: boolean | undefined): ProfileChoice {
  if (rateLimits === undefined) return choice;
  const overrides = asOverrides(choice);
  return { ...overrides, rateLimits: { ...overrides.rateLimits, enabled: rateLimits } };
}
