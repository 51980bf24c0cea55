/**
 * The command line run in this process, as the CLI tests drive it: what it printed on each stream,
 * its exit code, and the files it wrote (kept in memory, or written to disk when a later command
 * reads them back).
 */
import { writeFileSync } from 'node:fs';
import { main } from '../../src/cli/main.js';

/** What one run of the CLI did. */
export interface CliRun {
  readonly code: number;
  readonly out: string[];
  readonly err: string[];
  /** The files it wrote, by path (empty when they went to disk). */
  readonly files: Map<string, string>;
}

/** Runs `computesim ...argv`; `toDisk` writes its files for real instead of keeping them. */
export async function runCli(
  argv: readonly string[],
  options: { readonly toDisk?: boolean } = {},
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const files = new Map<string, string>();
  const code = await main(argv, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    writeFile: (path, text) => {
      const whole = typeof text === 'string' ? text : [...text].join('');
      if (options.toDisk === true) writeFileSync(path, whole);
      else files.set(path, whole);
    },
  });
  return { code, out, err, files };
}
