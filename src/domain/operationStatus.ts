/**
 * Operation statuses of the public v2 API and which of them are terminal.
 */

/** Every operation status. */
export const OPERATION_STATUSES = [
  'scheduling',
  'running',
  'finished',
  'failed',
  'error',
  'cancelling',
  'cancelled',
  'skipped',
] as const;

/** An operation status. */
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

const TERMINAL: ReadonlySet<OperationStatus> = new Set([
  'finished',
  'skipped',
  'error',
  'cancelled',
]);

/** True for statuses an operation never leaves (`failed` may still be retried). */
export function isTerminal(status: OperationStatus): boolean {
  return TERMINAL.has(status);
}
