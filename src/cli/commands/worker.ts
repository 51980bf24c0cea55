/**
 * `computesim worker --queue redis://HOST:PORT`: runs cells from the queue (sweep runs, fleet ranges)
 * on this machine until stopped, one line per cell. Start as many as there are machines or cores.
 */
import { startQueueWorker } from '../../queue/queueWorker.js';
import { durationOption, parseCommand, UsageError, wholeNumber } from '../args.js';
import { parseDuration } from '../../core/duration.js';
import type { CliIo } from '../io.js';
import { queueConnection } from '../queueOptions.js';

/** Help of the worker command. */
const WORKER_HELP = `Usage: computesim worker --queue redis://HOST:PORT [options]

Runs the cells that computesim sweep --queue (or fleet --queue) puts on the queue, until stopped
(Ctrl-C or SIGTERM finishes the cells in hand first). Study and fleet files are read from this
machine, at the path the submitter named, relative to this working directory.

Options:
  --queue URL          the Redis server holding the queue (required)
  --concurrency N      cells at once, each on a thread of its own (default 1)
  --lock-duration D    how long a cell of a stopped worker waits before another worker takes it
                       (default 30s; the cells of a live worker keep their locks however long)`;

/** Runs the worker command; resolves when the worker is stopped. */
export async function workerCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, help } = parseCommand(
    argv,
    {
      queue: { type: 'string' },
      concurrency: { type: 'string' },
      'lock-duration': { type: 'string' },
    },
    0,
    'no arguments (computesim worker --queue redis://HOST:PORT)',
  );
  if (help) {
    io.out(WORKER_HELP);
    return 0;
  }
  if (values.queue === undefined) throw new UsageError('worker needs --queue redis://HOST:PORT');
  const connection = queueConnection(values.queue);
  const concurrency =
    values.concurrency === undefined ? 1 : wholeNumber('--concurrency', values.concurrency, 1);
  const lock = values['lock-duration'];
  const lockDurationMs =
    lock === undefined ? undefined : parseDuration(durationOption('--lock-duration', lock));
  if (lockDurationMs !== undefined && lockDurationMs < 1_000)
    throw new UsageError('--lock-duration must be at least 1s');
  let fatal: (error: Error) => void = () => undefined;
  let lastError: string | undefined;
  const stopped = new Promise<Error | undefined>((resolve) => {
    fatal = resolve;
    process.once('SIGINT', () => resolve(undefined)).once('SIGTERM', () => resolve(undefined));
  });
  const worker = await startQueueWorker(values.queue, connection, {
    concurrency,
    ...(lockDurationMs === undefined ? {} : { lockDurationMs }),
    onCell: (event, jobId, detail) =>
      io.out(`cell ${jobId} ${event}${detail === undefined ? '' : `: ${detail}`}`),
    onFatal: (error) => fatal(error),
    // A lost connection repeats its error on every retry: say it once until it changes.
    onError: (error) => {
      if (error.message !== lastError) io.err(`computesim worker: ${error.message}`);
      lastError = error.message;
    },
  });
  io.out(`worker: waiting for cells on ${values.queue} (${concurrency} at a time)`);
  const error = await stopped;
  if (error !== undefined) {
    // Cells in hand stay locked until their locks expire; then other workers take them.
    io.err(`computesim worker: ${error.message}`);
    process.exit(1);
  }
  await worker.close();
  io.out('worker: stopped');
  return 0;
}
