/**
 * Lets the client's pending promise jobs run. The harness's only contact with the host's event loop:
 * one macrotask turn, after which every microtask the client queued has run. It never measures or
 * waits on wall time; virtual time moves only when the harness wakes a virtual timer.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Resolves after the host has run every promise job queued before this call. */
export function yieldToClient(): Promise<void> {
  return nextTurn();
}
