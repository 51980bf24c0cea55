/**
 * The fields every domain event carries from the engine, shared by the event files of each
 * aggregate (projectEventTypes.ts, computeEventTypes.ts, …).
 */

/** When an event happened (virtual time, epoch milliseconds) and its position in the log. */
export interface Stamp {
  readonly at: number;
  readonly seq: number;
}
