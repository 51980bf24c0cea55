/**
 * The working side of the queue: takes cells off the Redis queue and runs them on worker threads, so
 * this thread stays free to renew the jobs' locks however long a cell takes. A worker that stops
 * mid-cell loses its lock and BullMQ gives the cell to another; a cell that throws fails for good
 * (it would throw again); a thread that dies stops the worker, leaving its cells to the others.
 */
import { fileUrl } from '../definitions/loadDefinition.js';
import { CellThreads } from '../study/cellThreads.js';
import {
  cellOf,
  QUEUE_NAME,
  redisClient,
  type QueuedCell,
  type RedisAddress,
} from './cellQueue.js';
import { loadBullmq } from './queuePackages.js';
import { reachable } from './reachable.js';

/** How a queue worker runs. */
export interface QueueWorkerOptions {
  /** Cells run at once, one thread each (default 1). */
  readonly concurrency?: number;
  /**
   * How long a cell's lock lasts without renewal, ms: after a worker stops, its cells wait this
   * long (and up to one stall check more) before another worker takes them. Default 30 s.
   */
  readonly lockDurationMs?: number;
  /** Called as cells start and end, with the job id. */
  readonly onCell?: (event: 'started' | 'done' | 'failed', jobId: string, detail?: string) => void;
  /** Called when the worker cannot go on (a thread died). */
  readonly onFatal?: (error: Error) => void;
  /** Called with errors the worker survives (a lost Redis connection it retries). */
  readonly onError?: (error: Error) => void;
}

/** A running queue worker. */
export interface QueueWorker {
  /** Stops taking cells; waits for the running ones to end, then stops the threads. */
  close(): Promise<void>;
}

/** Starts a worker on the queue at `connection` (named `url` in messages). */
export async function startQueueWorker(
  url: string,
  connection: RedisAddress,
  options: QueueWorkerOptions = {},
): Promise<QueueWorker> {
  await reachable(url, connection);
  const { UnrecoverableError, Worker } = await loadBullmq();
  const concurrency = options.concurrency ?? 1;
  const lockDuration = options.lockDurationMs ?? 30_000;
  const threads = new CellThreads(concurrency);
  const client = await redisClient(connection);
  const worker = new Worker<QueuedCell>(
    QUEUE_NAME,
    async (job) => {
      const id = job.id ?? '?';
      options.onCell?.('started', id);
      try {
        const result = await threads.run(cellOf(job.data, fileUrl));
        options.onCell?.('done', id);
        return result;
      } catch (error) {
        const message = (error as Error).message;
        options.onCell?.('failed', id, message);
        if (message.startsWith('a worker ')) {
          // The thread died, not the cell: leave the cell to another worker (its lock expires).
          options.onFatal?.(new Error(message));
          return new Promise<never>(() => undefined);
        }
        throw new UnrecoverableError(message);
      }
    },
    {
      connection: client,
      concurrency,
      lockDuration,
      stalledInterval: Math.max(1_000, Math.floor(lockDuration / 2)),
      maxStalledCount: 3,
    },
  );
  worker.on('error', (error) => options.onError?.(error));
  await worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      await threads.close();
      client.disconnect();
    },
  };
}
