/**
 * Rebuilds a simulation from a log file on disk, a plain log or a state file, streaming it: a file
 * of any size, read-only (no lock, no repair; a torn tail is left out and reported).
 */
import { Simulation } from '../simulation/simulation.js';
import { LogFile, type LogFileScan } from './logFile.js';

/** What replaying a log file gave. */
export interface ReplayedLogFile {
  /** `undefined` when the file holds no event. */
  readonly simulation: Simulation | undefined;
  readonly scan: LogFileScan;
}

/** Replays the whole committed events of `path`; throws `LogFormatError` naming a bad line. */
export function replayLogFile(path: string): ReplayedLogFile {
  const file = LogFile.open(path);
  const simulation = file.scan.kind === 'empty' ? undefined : Simulation.replay(file.events());
  return { simulation, scan: file.scan };
}
