/**
 * Quickstart: create a project, poll its operations every 5 seconds of virtual time until they
 * finish, then leave the compute alone and watch it scale to zero after 5 minutes. The script lives
 * in src/scenario/quickstart.ts, built in so that `computesim demo` works from the package alone.
 *
 * Run: npm start   (or: npm start -- run scenarios/quickstart.ts [--seed N])
 */
import { quickstartScenario } from '../src/scenario/quickstart.js';

export default quickstartScenario;
