/**
 * Hostile clients below `pg`: a logged-in client whose socket is taken over, the startup message of
 * a client of the victim, junk streamed until the server hangs up, and what became of such
 * connections, in words.
 */
import type { Socket } from 'node:net';
import type pg from 'pg';
import type { BystanderConfig } from '../support/bystander.js';
import {
  describeError,
  startupMessage,
  watch,
  type RawConnection,
} from '../support/rawPostgres.js';
import { MB, tally } from './common.js';
import { connectClient, type Project } from './targets.js';

/**
 * A connected `pg` client whose socket is taken over: `pg` no longer reads it (nothing it could
 * not parse reaches it), and the raw connection counts and reads what the server sends.
 */
export async function hijacked(
  config: BystanderConfig,
): Promise<{ client: pg.Client; raw: RawConnection }> {
  const client = await connectClient(config);
  const stream = (client as unknown as { connection: { stream: Socket } }).connection.stream;
  stream.removeAllListeners('data');
  return { client, raw: watch(stream) };
}

/** What became of raw connections: their first errors, when they closed, what they sent. */
export function rawOutcomes(
  connections: readonly RawConnection[],
  startedAt: number,
  sent: readonly number[],
): string {
  const ends = connections.map((connection) => {
    const closed = connection.closed();
    const error = describeError(connection.error());
    return closed === undefined
      ? `still open, ${error}`
      : `${error}, closed by ${((closed.at - startedAt) / 1000).toFixed(1)} s${closed.cause === undefined ? '' : ` (${closed.cause})`}`;
  });
  const total = sent.reduce((sum, bytes) => sum + bytes, 0);
  return `${tally(ends)}; sent ${(total / MB).toFixed(0)} MiB in all (most by one ${(Math.max(...sent) / MB).toFixed(0)} MiB)`;
}

/** Streams 1 MiB chunks on `connection` until it closes, `limit` bytes or `ms` pass. */
export async function stream(
  connection: RawConnection,
  limit: number,
  ms: number,
): Promise<number> {
  const chunk = Buffer.alloc(MB, 0x78);
  const started = performance.now();
  let sent = 0;
  while (sent < limit && performance.now() - started < ms) {
    const part = Math.min(chunk.length, limit - sent);
    if (!(await connection.write(part === chunk.length ? chunk : chunk.subarray(0, part), 2_000)))
      break;
    sent += part;
  }
  return sent;
}

/** The startup message of a client of the victim's compute. */
export function victimStartup(victim: Project): Buffer {
  return startupMessage({
    user: 'neondb_owner',
    database: 'neondb',
    options: `endpoint=${victim.endpointId}`,
    application_name: 'hostile',
  });
}
