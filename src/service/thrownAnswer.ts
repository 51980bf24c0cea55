/**
 * What the HTTP core answers for an error thrown while it answers: what went wrong, never how (no
 * stack, no internal message). A state file that cannot be written is a 503; anything else a 500.
 */
import { errorAnswer, type Answer } from './errorTable.js';
import { StateFileError } from './stateFileError.js';

/** The body of every 500: the simulator failed, and nothing of why. */
export const INTERNAL_ERROR = {
  code: 'internal_error',
  message: 'the simulator failed on this request',
} as const;

/** The first line of a thrown error's message (of anything else thrown, its text). */
export function firstLine(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}

/**
 * An error thrown while answering, as an answer that says what went wrong but never how. (A run's
 * own refusals, a step limit or a log that takes no more events, the simulation answers itself.)
 */
export function thrownErrorAnswer(error: unknown): Answer {
  if (error instanceof StateFileError) return errorAnswer('service_unavailable', firstLine(error));
  return { status: 500, body: INTERNAL_ERROR };
}
