/**
 * How many clients the Postgres front takes, as a Postgres server limits its connections: in all,
 * and while they are still logging in (in total and from one address), so that a flood of
 * connections that never log in cannot take the process's file descriptors from the state file and
 * the HTTP port. A client over a limit is told `53300 sorry, too many clients already` and closed.
 */
import { readFileSync } from 'node:fs';

/** The limits. */
export interface ClientLimits {
  /** Clients at once, logged in or not (TCP and WebSocket). */
  readonly maxClients: number;
  /** Clients still logging in (before their password is proven), in total. */
  readonly maxStarting: number;
  /** Clients still logging in from one address. */
  readonly maxStartingPerAddress: number;
}

/** File descriptors kept for everything but Postgres clients (the state file, HTTP, databases). */
const RESERVED_DESCRIPTORS = 256;
/** The most clients the front takes whatever the descriptors allow. */
const MOST_CLIENTS = 10_000;

/**
 * The limits unless told otherwise: as many clients as the process's open-file limit leaves room
 * for after a reserve (Linux tells it in `/proc/self/limits`; elsewhere 10,000), a quarter of them
 * (at most 256) logging in at once, half of those from one address.
 */
export function defaultClientLimits(openFiles = openFileLimit()): ClientLimits {
  const maxClients = Math.max(16, Math.min(MOST_CLIENTS, openFiles - RESERVED_DESCRIPTORS));
  const maxStarting = Math.max(4, Math.min(256, Math.floor(maxClients / 4)));
  return { maxClients, maxStarting, maxStartingPerAddress: Math.max(2, maxStarting >> 1) };
}

/** The soft limit on open files of this process, or `Infinity` when the system does not say. */
export function openFileLimit(
  read: () => string = () => readFileSyncOrEmpty('/proc/self/limits'),
): number {
  const line = read()
    .split('\n')
    .find((candidate) => candidate.startsWith('Max open files'));
  const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
  const value = Number(soft);
  return soft === undefined || soft === 'unlimited' || !Number.isFinite(value) ? Infinity : value;
}

function readFileSyncOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
