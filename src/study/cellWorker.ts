/**
 * Worker-thread entry of the cell threads: runs each cell it is sent (see `CellRunner`) and posts
 * back its result, or the message of the error that stopped it.
 */
import { parentPort } from 'node:worker_threads';
import type { CellTask } from './cellTask.js';
import { CellRunner, type CellResult } from './runCell.js';

/** A cell sent to a thread, numbered by the sender. */
export interface CellRequest {
  readonly id: number;
  readonly task: CellTask;
}

/** What a cell thread posts back for a request. */
export type CellReply =
  | { readonly kind: 'done'; readonly id: number; readonly result: CellResult }
  | { readonly kind: 'failed'; readonly id: number; readonly message: string };

const port = parentPort;
if (port !== null) {
  const runner = new CellRunner();
  port.on('message', ({ id, task }: CellRequest) => {
    runner.run(task).then(
      (result) => port.postMessage({ kind: 'done', id, result } satisfies CellReply),
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        port.postMessage({ kind: 'failed', id, message } satisfies CellReply);
      },
    );
  });
}
