/**
 * Process entry of the CLI: wires `main` to argv, stdout, stderr and the exit code.
 */
import { main } from './main.js';

process.exitCode = main(
  process.argv.slice(2),
  (line) => console.log(line),
  (line) => console.error(line),
);
