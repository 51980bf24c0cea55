/**
 * Commands of the control plane, in the imperative: those a request issues and those a fired timer
 * issues. Bodies are already parsed and validated in shape by the API layer.
 */
import type { TimerCommand } from './timers.js';

/** Create a project with its default branch `main` and a primary read-write compute. */
export interface CreateProject {
  readonly type: 'CreateProject';
  readonly name?: string;
  readonly regionId?: string;
}

/** Every command a request can issue. */
export type RequestCommand = CreateProject;

/** Every command. */
export type Command = RequestCommand | TimerCommand;
