/**
 * The submitting side of the queue: puts cells on the Redis queue as jobs of one run, follows their
 * completion for progress, and resolves to their results in cell order once every one is done. A
 * cell whose worker stopped mid-way (its lock expired) is put back by BullMQ and run again elsewhere;
 * a cell that failed (its study threw) fails the run.
 */
import { randomUUID } from 'node:crypto';
import type { Job, Queue, QueueEvents } from 'bullmq';
import { QUEUE_NAME, redisClient, type QueuedCell, type RedisAddress } from './cellQueue.js';
import { loadBullmq } from './queuePackages.js';
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
  const { Queue, QueueEvents } = await loadBullmq();
  const clients = [await redisClient(connection), await redisClient(connection)] as const;
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
    const outcomes = jobOutcomes(events, ids);
    let done = 0;
    const results = Promise.all(
      ids.map(async (id, i) => {
        let result: unknown;
        try {
          result = await outcomes.of(id);
        } catch (error) {
          throw new CellFailed(i, (error as Error).message);
        }
        options.onProgress?.(++done, cells.length);
        return result;
      }),
    );
    // Handled below; marked now, as a cell may fail before the jobs are all added.
    results.catch(() => undefined);
    let jobs: Job[] = [];
    try {
      jobs = await queue.addBulk(
        cells.map((data, i) => ({
          name: 'cell',
          data,
          opts: { jobId: ids[i] as string, removeOnComplete: false, removeOnFail: false },
        })),
      );
      // A job that finished before the events were being read sent its event unheard: ask.
      await Promise.all(ids.map((id) => outcomes.poll(queue, id)));
      return await results;
    } finally {
      outcomes.stop();
      await Promise.allSettled(jobs.map((job) => job.remove()));
    }
  } finally {
    await Promise.allSettled([events.close(), queue.close()]);
    for (const client of clients) client.disconnect();
  }
}

/**
 * How the jobs `ids` end, heard from `events` with one listener per kind of ending for all of them.
 * (BullMQ's `job.waitUntilFinished` adds a listener to the queue per job waited for, so waiting for
 * a sweep's cells at once piled one up per cell: MaxListenersExceededWarning past ten.)
 */
function jobOutcomes(events: QueueEvents, ids: readonly string[]) {
  const pending = new Map<
    string,
    { resolve: (value: unknown) => void; reject: (e: Error) => void }
  >();
  const promises = new Map(
    ids.map((id) => [
      id,
      new Promise<unknown>((resolve, reject) => pending.set(id, { resolve, reject })),
    ]),
  );
  const completed = ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }) =>
    pending.get(jobId)?.resolve(returnvalue);
  const failed = ({ jobId, failedReason }: { jobId: string; failedReason: string }) =>
    pending.get(jobId)?.reject(new Error(failedReason));
  events.on('completed', completed);
  events.on('failed', failed);
  return {
    /** How job `id` ends: its return value, or a rejection with its failure. */
    of: (id: string): Promise<unknown> => promises.get(id) as Promise<unknown>,
    /** Settles job `id` now if it has already ended (a second settling changes nothing). */
    async poll(queue: Queue, id: string): Promise<void> {
      const state = await queue.getJobState(id);
      if (state !== 'completed' && state !== 'failed') return;
      const job = await queue.getJob(id);
      if (state === 'completed') pending.get(id)?.resolve(job?.returnvalue);
      else pending.get(id)?.reject(new Error(job?.failedReason ?? 'failed'));
    },
    /** Stops listening. */
    stop(): void {
      events.off('completed', completed);
      events.off('failed', failed);
    },
  };
}
