/**
 * `computesim/engine`: the generic engine under the simulation, for building a simulation of your
 * own on it (a Decider over an agenda of timers and an append-only log). Most users need only the
 * root entry; these are the internals it is built from.
 */
export { Engine } from './engine.js';
export type { EngineOptions, RunOptions } from './engineOptions.js';
export { Agenda, type DueTimer } from './agenda.js';
export { EventLog } from './eventLog.js';
export type { Arm, Decider, DecideContext } from './decider.js';
export type { Touch } from './dirtyPaths.js';
export type { LoggedEvent, SimulationStarted } from './loggedEvent.js';
export { ClockError, LogFormatError, ReentrancyError, StepLimitError } from './errors.js';
export { parseJsonLines, type ParsedLog } from './jsonLines.js';
export { RandomSource } from '../core/randomSource.js';
export { ok, err, type Result } from '../core/result.js';
