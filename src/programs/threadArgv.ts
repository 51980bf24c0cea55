/**
 * The Node options cell threads start with. A worker thread inherits its process's, and a process
 * started through tsx (`npm start`, `tsx …`, `node --import tsx`) has tsx's loader among them: every
 * thread would load and register tsx, and send each module it imports through tsx's hooks, though
 * its program is compiled JavaScript. The threads start without them; one that meets a TypeScript
 * file all the same registers tsx then (`loadDefinition`).
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Options that preload a module, each followed by the module (or joined to it by `=`). */
const PRELOADS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader']);

/** `execArgv` without the options that preload tsx; every other option is kept, in order. */
export function threadExecArgv(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const option = execArgv[i] as string;
    const equals = option.indexOf('=');
    const name = equals < 0 ? option : option.slice(0, equals);
    if (!PRELOADS.has(name)) {
      kept.push(option);
      continue;
    }
    const joined = equals >= 0;
    const value = joined ? option.slice(equals + 1) : execArgv[i + 1];
    if (!joined) i++;
    if (value !== undefined && isTsx(value)) continue;
    kept.push(option);
    if (!joined && value !== undefined) kept.push(value);
  }
  return kept;
}

/** Whether a preloaded module is tsx's: by package name, or a path or URL into the package. */
function isTsx(module: string): boolean {
  return (
    module === 'tsx' || module.startsWith('tsx/') || /[\\/]node_modules[\\/]tsx[\\/]/.test(module)
  );
}

/** The options of this process that a worker accepted, once known. */
let accepted: readonly string[] | undefined;

/**
 * Starts a worker on `program` (with `options`) and this process's Node options but tsx's. Node refuses in a worker the
 * options it inherits silently (V8's, like `--expose-gc`, and process-wide ones, like `--title`,
 * which hold for the whole process anyway): those it names are left out too. Should Node still
 * refuse, the worker inherits every option, tsx's included, as it would by default.
 */
export function startThread(program: URL, options: Omit<WorkerOptions, 'execArgv'> = {}): Worker {
  const wanted = accepted ?? threadExecArgv(process.execArgv);
  try {
    const thread = new Worker(program, { ...options, execArgv: [...wanted] });
    accepted = wanted;
    return thread;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    const refused = new Set((error as Error).message.replace(/^[^:]*:\s*/, '').split(', '));
    const rest = wanted.filter((option) => !refused.has(option));
    try {
      const thread = new Worker(program, { ...options, execArgv: rest });
      accepted = rest;
      return thread;
    } catch {
      accepted = undefined;
      return new Worker(program, options);
    }
  }
}
