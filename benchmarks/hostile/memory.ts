/**
 * The server's memory and threads as a case sees them: its RSS sampled from /proc (before, peak,
 * after), its thread count (each open branch database has one), and its RSS once a full collection
 * was forced through its inspector.
 */
import { readdirSync } from 'node:fs';
import { heapAfterFullCollection } from '../support/inspectedHeap.js';
import { residentBytes } from '../support/residentMemory.js';
import type { ServeChild } from '../support/serveChild.js';
import { sleep, within } from './common.js';

/** Samples the RSS of `pid` every 100 ms; a process that is gone leaves the figures as they were. */
export function watchMemory(pid: number) {
  const read = () => {
    try {
      return residentBytes(pid);
    } catch {
      return undefined;
    }
  };
  const before = read() ?? 0;
  let peak = before;
  let last = before;
  const timer = setInterval(() => {
    const now = read();
    if (now === undefined) return;
    last = now;
    peak = Math.max(peak, now);
  }, 100);
  return {
    stop: () => {
      clearInterval(timer);
      const after = read() ?? last;
      return { before, peak: Math.max(peak, after), after };
    },
  };
}

/** The threads of process `pid` (0 once it is gone). */
export function threadCount(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/task`).length;
  } catch {
    return 0;
  }
}

/** The server's RSS after a full collection (forced through its inspector), or `undefined`. */
export async function collectedResident(server: ServeChild): Promise<number | undefined> {
  const inspector = server.inspector();
  if (inspector === undefined || !server.alive()) return undefined;
  try {
    await within(heapAfterFullCollection(inspector), 30_000, 'full collection');
    await sleep(500);
    return residentBytes(server.pid);
  } catch {
    return undefined;
  }
}
