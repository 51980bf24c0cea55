/**
 * The submitting side of the queue: puts cells on the Redis queue as jobs of one run, follows their
 * completion for progress, and resolves to their results in cell order once every one is done. A
 * cell whose worker stopped mid-way (its lock expired) is put back by BullMQ and run again elsewhere;
 * a cell that failed (its study threw) fails the run.
 */
import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import { QUEUE_NAME, redisClient, type QueuedCell, type RedisAddress } from './cellQueue.js';
import { reachable } from './reachable.js';

/** How a submission reports as it goes. */
export interface SubmitOptions {
  /** Called as cells finish: done so far, total. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Called when a cell is put back on the queue because its worker stopped (the cell's position). */
  readonly onRetry?: (cell: number) => void;
  /** How long to wait for Redis to answer before giving up, ms (default 10 s). */
  readonly connectTimeoutMs?: number;
}

/** One cell that failed, with its position in the submitted list. */
export class CellFailed extends Error {
  constructor(
    readonly cell: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** Runs `cells` on the queue at `connection` (named `url` in messages); results in cell order. */
export async function submitCells(
  url: string,
  connection: RedisAddress,
  cells: readonly QueuedCell[],
  options: SubmitOptions = {},
): Promise<unknown[]> {
  await reachable(url, connection, options.connectTimeoutMs);
  const clients = [redisClient(connection), redisClient(connection)] as const;
  const queue = new Queue(QUEUE_NAME, { connection: clients[0] });
  const events = new QueueEvents(QUEUE_NAME, { connection: clients[1] });
  // A lost connection is retried by the clients; a job that cannot finish fails on its own.
  queue.on('error', () => undefined);
  events.on('error', () => undefined);
  const run = randomUUID().slice(0, 8);
  const ids = cells.map((_, i) => `${run}-${i}`);
  try {
    await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
    events.on('stalled', ({ jobId }) => {
      const cell = ids.indexOf(jobId);
      if (cell !== -1) options.onRetry?.(cell);
    });
    const jobs = await queue.addBulk(
      cells.map((data, i) => ({
        name: 'cell',
        data,
        opts: { jobId: ids[i] as string, removeOnComplete: false, removeOnFail: false },
      })),
    );
    let done = 0;
    try {
      return await Promise.all(
        jobs.map(async (job, i) => {
          let result: unknown;
          try {
            result = await job.waitUntilFinished(events);
          } catch (error) {
            throw new CellFailed(i, (error as Error).message);
          }
          options.onProgress?.(++done, cells.length);
          return result;
        }),
      );
    } finally {
      await Promise.allSettled(jobs.map((job) => job.remove()));
    }
  } finally {
    await Promise.allSettled([events.close(), queue.close()]);
    for (const client of clients) client.disconnect();
  }
}
