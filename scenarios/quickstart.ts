/**
 * Quickstart: create a project, poll its operations every 5 seconds of virtual time until they
 * finish, then leave the compute alone and watch it scale to zero after 5 minutes.
 *
 * Run: npm start   (or: npx tsx scenarios/quickstart.ts [seed])
 */
import { quickstart } from '../src/scenario/quickstart.js';

const seed = process.argv[2] === undefined ? 42 : Number(process.argv[2]);
if (!Number.isSafeInteger(seed)) {
  console.error(`quickstart: seed must be a whole number, got ${JSON.stringify(process.argv[2])}`);
  process.exit(2);
}
for (const line of quickstart(seed)) console.log(line);
