/**
 * Process entry of the CLI: wires `main` to argv, stdout, stderr, the file system and the exit code.
 * With no arguments under `npm start`, it runs the demo.
 */
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { writeLines } from '../logfiles/writeLines.js';
import { main } from './main.js';

// A reader that stops early (`| head`) is not an error: stop quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const argv = process.argv.slice(2);
const startedByNpmStart = process.env['npm_lifecycle_event'] === 'start';

process.exitCode = await main(argv.length === 0 && startedByNpmStart ? ['demo'] : argv, {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  writeFile: (path, text) =>
    typeof text === 'string' ? writeFileSync(path, text) : writePieces(path, text),
  stdoutTerminal: process.stdout.isTTY,
  color: process.stdout.isTTY && process.env['NO_COLOR'] === undefined,
  ...(process.stderr.isTTY ? { progressStream: process.stderr } : {}),
});

/** Writes `pieces` to `path` in writes of about 1 MiB, never as one string. */
function writePieces(path: string, pieces: Iterable<string>): void {
  const fd = openSync(path, 'w');
  try {
    writeLines(fd, pieces);
  } finally {
    closeSync(fd);
  }
}
