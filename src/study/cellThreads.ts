/**
 * A pool of worker threads that run cells: `run(task)` resolves to the cell's result when a thread
 * is free and done with it. The threads start at once, all together, on compiled JavaScript: the
 * built package's own, or from the sources a program compiled once per process (`cellProgram`).
 * Loaded on demand only, so the root entry stays free of node:worker_threads (it loads in runtimes
 * that lack it).
 */
import type { Worker } from 'node:worker_threads';
import { cellProgram } from './cellProgram.js';
import type { CellTask } from './cellTask.js';
import type { CellReply, CellRequest } from './cellWorker.js';
import type { CellResult } from './runCell.js';
import { startThread } from '../programs/threadArgv.js';

interface Pending {
  readonly request: CellRequest;
  readonly resolve: (result: CellResult) => void;
  readonly reject: (error: Error) => void;
}

/** Worker threads running cells, at most one at a time each. */
export class CellThreads {
  readonly #idle: Worker[] = [];
  readonly #queued: Pending[] = [];
  readonly #running = new Map<number, Pending>();
  readonly #threads: Worker[] = [];
  readonly #started: Promise<void>;
  #nextId = 0;
  #broken: Error | undefined;
  #closing = false;

  /**
   * Starts `count` threads (at least one). `definitions`, the file URLs of the definition files
   * the cells will name, are compiled into the threads' program when it is made from the sources
   * (a cell may still name another; its file then loads through tsx in the thread).
   */
  constructor(count: number, definitions: readonly string[] = []) {
    this.#started = threadProgram(definitions).then(
      (program) => {
        if (this.#closing) return;
        for (let i = 0; i < Math.max(1, count); i++) this.#start(program);
        this.#dispatch();
      },
      (error: Error) => this.#fail(error),
    );
  }

  /** Runs `task` on the next free thread; rejects with its error, or when a thread dies. */
  run(task: CellTask): Promise<CellResult> {
    if (this.#broken !== undefined) return Promise.reject(this.#broken);
    return new Promise((resolve, reject) => {
      this.#queued.push({ request: { id: this.#nextId++, task }, resolve, reject });
      this.#dispatch();
    });
  }

  /** Stops every thread; cells still queued or running are rejected. */
  async close(): Promise<void> {
    this.#closing = true;
    this.#fail(new Error('the cell threads were closed'));
    await this.#started;
    await Promise.all(this.#threads.map((thread) => thread.terminate()));
  }

  #start(program: URL): void {
    const thread = startThread(program);
    this.#threads.push(thread);
    this.#idle.push(thread);
    thread.on('message', (reply: CellReply) => {
      const pending = this.#running.get(reply.id);
      this.#running.delete(reply.id);
      this.#idle.push(thread);
      if (reply.kind === 'done') pending?.resolve(reply.result);
      else pending?.reject(new Error(reply.message));
      this.#dispatch();
    });
    thread.on('error', (error) => this.#fail(new Error(`a worker failed: ${error.message}`)));
    thread.on('exit', (code) => {
      if (!this.#closing)
        this.#fail(new Error(`a worker exited (code ${code}) before its runs were done`));
    });
  }

  #dispatch(): void {
    while (this.#idle.length > 0 && this.#queued.length > 0) {
      const thread = this.#idle.pop() as Worker;
      const pending = this.#queued.shift() as Pending;
      this.#running.set(pending.request.id, pending);
      thread.postMessage(pending.request);
    }
  }

  #fail(error: Error): void {
    this.#broken ??= error;
    for (const pending of [...this.#queued, ...this.#running.values()]) pending.reject(error);
    this.#queued.length = 0;
    this.#running.clear();
  }
}

/**
 * The module the threads run: the built package's cell entry, or, running from the TypeScript
 * sources (under tsx or vitest), the program compiled from them.
 */
function threadProgram(definitions: readonly string[]): Promise<URL> {
  return import.meta.url.endsWith('.ts')
    ? cellProgram(definitions)
    : Promise.resolve(new URL('./cellWorker.js', import.meta.url));
}
