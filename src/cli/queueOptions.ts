/**
 * `--queue redis://HOST:PORT` for the study commands: the runs of a sweep put on the queue as cells,
 * a progress bar while workers run them, a note for each one retried after its worker stopped.
 */
import { CellFailed, submitCells } from '../queue/submitCells.js';
import { redisConnection, type QueuedCell } from '../queue/cellQueue.js';
import { MissingPackageError } from '../packages/optionalPackage.js';
import type { StudyDefinition } from '../study/study.js';
import { planSweep, type SweepOptions } from '../study/sweepPlan.js';
import {
  shapeFingerprint,
  sweepResult,
  sweepShape,
  type SweepResult,
} from '../study/sweepResult.js';
import type { FleetMetrics } from '../projection/metrics.js';
import { UsageError } from './args.js';
import type { CliIo } from './io.js';
import { progressBar } from './progressBar.js';

/** The connection `--queue` names, or a usage error. */
export function queueConnection(url: string) {
  try {
    return redisConnection(url);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Runs cells on the queue at `url` with a bar labelled `label`; `what` names a cell in errors. */
export async function runOnQueue(
  url: string,
  cells: readonly QueuedCell[],
  io: CliIo,
  label: string,
  what: (cell: number) => string,
): Promise<unknown[]> {
  const connection = queueConnection(url);
  const progress = progressBar(`${label} (queue)`, io.progressStream, 'cells');
  let retried = 0;
  try {
    return await submitCells(url, connection, cells, {
      onProgress: (done, total) => progress.update(done, total),
      onRetry: () => retried++,
    });
  } catch (error) {
    if (error instanceof CellFailed)
      throw new Error(`${label}: ${what(error.cell)} failed: ${error.reason}`, { cause: error });
    if (error instanceof MissingPackageError) throw error; // its own line says what to install
    throw new Error(`${label}: ${(error as Error).message}`, { cause: error });
  } finally {
    progress.stop();
    if (retried > 0)
      io.err(
        `${label}: ${retried} cell${retried > 1 ? 's were' : ' was'} run again after a worker stopped mid-way`,
      );
  }
}

/** A sweep of the study file `file` run on the queue at `url`. */
export async function sweepOnQueue(
  url: string,
  file: string,
  study: StudyDefinition<unknown>,
  options: SweepOptions,
  io: CliIo,
): Promise<SweepResult> {
  const plan = planSweep(study, options);
  const shape = sweepShape(plan);
  const expect = shapeFingerprint(shape);
  const cells = plan.tasks.map((task): QueuedCell => ({
    kind: 'sweep',
    file,
    options,
    index: task.index,
    expect,
  }));
  const fleets = await runOnQueue(url, cells, io, 'sweep', (cell) => `run ${cell + 1}`);
  return sweepResult(shape, fleets as FleetMetrics[]);
}
