/**
 * `--shard i/n` (the i-th of n slices, 1-based as in vitest or Playwright), or `--shard n` with the
 * index taken from `JOB_COMPLETION_INDEX` (0-based, as a Kubernetes Indexed Job sets it); and the
 * reading of part files for `--merge`.
 */
import { readFileSync } from 'node:fs';
import type { Shard } from '../study/sweepShard.js';
import { shardProblem } from '../study/sweepShard.js';
import { UsageError } from './args.js';

/** The shard `--shard` names; `env` supplies `JOB_COMPLETION_INDEX` for `--shard n`. */
export function parseShard(text: string, env: NodeJS.ProcessEnv = process.env): Shard {
  const match = /^(?:(\d+)\/)?(\d+)$/.exec(text.trim());
  if (match === null) throw new UsageError(`--shard wants i/n (like 2/8) or n, got "${text}"`);
  const count = Number(match[2]);
  let index: number;
  if (match[1] !== undefined) index = Number(match[1]);
  else {
    const fromJob = env['JOB_COMPLETION_INDEX'];
    if (fromJob === undefined || !/^\d+$/.test(fromJob.trim()))
      throw new UsageError(
        `--shard ${text} needs an index: give --shard i/${text}, or set JOB_COMPLETION_INDEX (0-based)`,
      );
    index = Number(fromJob) + 1;
  }
  const problem = shardProblem({ index, count });
  if (problem !== undefined) throw new UsageError(`--shard: ${problem}`);
  return { index, count };
}

/** Reads part files as JSON, each named by its path; a one-line error for an unreadable one. */
export function readParts(files: readonly string[]): { name: string; value: unknown }[] {
  return files.map((name) => {
    let text: string;
    try {
      text = readFileSync(name, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(
        `merge: cannot read ${name}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
        { cause: error },
      );
    }
    try {
      return { name, value: JSON.parse(text) as unknown };
    } catch (error) {
      throw new Error(`merge: ${name} is not a part file (not JSON)`, { cause: error });
    }
  });
}
