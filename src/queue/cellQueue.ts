/**
 * The Redis queue cells travel on (BullMQ): its name, the connection a `redis://` URL names, and what
 * a job carries. A job names its definition file as the submitter was given it, so every worker
 * resolves it against its own working directory (the same checkout or image everywhere).
 */
import type { Redis } from 'ioredis';
import type { CellTask, FleetCell, SweepCell } from '../study/cellTask.js';
import { loadIoredis } from './queuePackages.js';

/** The BullMQ queue every submitter and worker uses. */
export const QUEUE_NAME = 'computesim-cells';

/** What a job carries: a cell without its file URL, and the file as the submitter named it. */
export type QueuedCell = { readonly file: string } & (
  Omit<SweepCell, 'url'> | Omit<FleetCell, 'url'>
);

/** Where a Redis server is, and how to sign in. */
export interface RedisAddress {
  readonly host: string;
  readonly port: number;
  readonly db?: number;
  readonly username?: string;
  readonly password?: string;
}

/** The connection a `redis://HOST:PORT[/DB]` URL names; a `RangeError` naming the problem else. */
export function redisConnection(url: string): RedisAddress {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RangeError(`--queue wants redis://HOST:PORT, got "${url}"`);
  }
  if (parsed.protocol !== 'redis:' || parsed.hostname === '')
    throw new RangeError(`--queue wants redis://HOST:PORT, got "${url}"`);
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db))
    throw new RangeError(`--queue: the database of ${url} must be a number, got "${db}"`);
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port === '' ? 6379 : Number(parsed.port),
    ...(db === '' ? {} : { db: Number(db) }),
    ...(parsed.username === '' ? {} : { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password === '' ? {} : { password: decodeURIComponent(parsed.password) }),
  };
}

/**
 * A Redis client for BullMQ (in an ES module BullMQ cannot load ioredis itself, so it is given
 * clients). Each queue object gets one of its own; its owner disconnects it after closing them.
 */
export async function redisClient(address: RedisAddress): Promise<Redis> {
  const { Redis } = await loadIoredis();
  // BullMQ workers block on Redis; they must not give up on a slow reply.
  const client = new Redis({ ...address, maxRetriesPerRequest: null });
  // Errors reach the queue objects' own handlers; an unhandled 'error' would end the process.
  client.on('error', () => undefined);
  return client;
}

/** The cell a worker runs for a job: its file resolved to a URL by `toUrl`. */
export function cellOf(job: QueuedCell, toUrl: (file: string) => string): CellTask {
  const { file, ...rest } = job;
  return { ...rest, url: toUrl(file) };
}
