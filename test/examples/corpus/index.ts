/**
 * The corpus: client code with one known bug each, and careful clients doing real jobs, each with
 * the setup it runs on (made on the harness's simulation before the client starts, as the guide
 * does). `test/examples/corpus.test.ts` and `npm run bench -- toolkit` run every entry with the
 * documented recipe (`recipe.ts`) and compare the toolkit's verdicts with what each entry is.
 */
import type { ClientContext, SimHarness } from '../../../src/testing/index.js';
import { branchThenCompute } from './bugs/branchThenCompute.js';
import { createThenBranchBackoff } from './bugs/createThenBranchBackoff.js';
import { createThenBranchNoWait } from './bugs/createThenBranchNoWait.js';
import { failedAsFinished } from './bugs/failedAsFinished.js';
import { firstComputeForWrites } from './bugs/firstComputeForWrites.js';
import { ignoresRetryAfter } from './bugs/ignoresRetryAfter.js';
import { pollsEverySecond } from './bugs/pollsEverySecond.js';
import { pollsWithoutDeadline } from './bugs/pollsWithoutDeadline.js';
import { queriesBeforeStarted } from './bugs/queriesBeforeStarted.js';
import { restartsDeletedEndpoint } from './bugs/restartsDeletedEndpoint.js';
import { retriesLockedAtOnce } from './bugs/retriesLockedAtOnce.js';
import { throwsOn5xx } from './bugs/throwsOn5xx.js';
import { throwsOnLocked } from './bugs/throwsOnLocked.js';
import { onboardTenant } from './careful/onboardTenant.js';
import { previewBranch } from './careful/previewBranch.js';
import { resetAndResize } from './careful/resetAndResize.js';
import { sdkMaintenance } from './careful/sdkMaintenance.js';
import { ApiError, SqlFailed } from './neonApi.js';
import type { Verdict } from './recipe.js';

type Simulation = SimHarness['sim'];
/** A client ready to run: its setup made. */
type Job = (ctx: ClientContext) => Promise<unknown>;

/** One client of the corpus. */
export interface CorpusEntry {
  /** The client's function name. */
  readonly name: string;
  /** Its bug class (`1`, `1b` … `12`), or `careful`. */
  readonly bugClass: string;
  /** What it does, and what it gets wrong. */
  readonly summary: string;
  /** Makes its setup on `sim` (requests, then `runUntilIdle`) and returns the client. */
  readonly prepare: (sim: Simulation) => Job;
  /**
   * Bug clients: whether a failing run shows this bug. By default an oracle finding does; a bug
   * that only the job's outcome shows says which outcome.
   */
  readonly shows?: (verdict: Verdict) => boolean;
  /** Bug clients: the verdict that should find it (an oracle's name, `job failed`, `timed_out`). */
  readonly judgedBy?: string;
}

/** A project (`POST /projects`), settled: its id and its default branch's. */
export function makeProject(sim: Simulation): { projectId: string; branchId: string } {
  const created = sim.request('POST', '/projects', { project: { name: 'app' } }).body;
  sim.runUntilIdle();
  return { projectId: created.project.id as string, branchId: created.branch.id as string };
}

/** A project and a second branch `name` (with a read_write compute when `withCompute`), settled. */
export function makeBranch(
  sim: Simulation,
  name: string,
  withCompute: boolean,
): { projectId: string; parentId: string; branchId: string } {
  const { projectId, branchId: parentId } = makeProject(sim);
  const created = sim.request('POST', `/projects/${projectId}/branches`, {
    branch: { name },
    ...(withCompute ? { endpoints: [{ type: 'read_write' }] } : {}),
  }).body;
  sim.runUntilIdle();
  return { projectId, parentId, branchId: created.branch.id as string };
}

const anOracle = (verdict: Verdict) => verdict.findings.length > 0;

/** The clients with one bug each. */
export const BUG_CLIENTS: readonly CorpusEntry[] = [
  {
    name: 'createThenBranchNoWait',
    bugClass: '1',
    summary: 'creates a project, then at once a branch in it, retrying 422/423 with no wait',
    prepare: () => (ctx) => createThenBranchNoWait(ctx, 'acme'),
    judgedBy: 'waitsForOperations',
  },
  {
    name: 'createThenBranchBackoff',
    bugClass: '1b',
    summary: 'the same with 2 s, 4 s, 8 s waits on 423/422, never polling the operations',
    prepare: () => (ctx) => createThenBranchBackoff(ctx, 'acme'),
    judgedBy: 'waitsForOperations',
  },
  {
    name: 'branchThenCompute',
    bugClass: '2',
    summary: 'creates a branch, then at once a compute on it',
    prepare: (sim) => {
      const { projectId } = makeProject(sim);
      return (ctx) => branchThenCompute(ctx, projectId, 'feature');
    },
    judgedBy: 'waitsForOperations',
  },
  {
    name: 'throwsOnLocked',
    bugClass: '3',
    summary: 'resizes the primary; throws on 423',
    prepare: (sim) => {
      const { projectId, branchId } = makeProject(sim);
      return (ctx) => throwsOnLocked(ctx, projectId, branchId);
    },
    judgedBy: 'retriesWithBackoff',
  },
  {
    name: 'retriesLockedAtOnce',
    bugClass: '4',
    summary: 'restarts the primary; retries 423 with no delay',
    prepare: (sim) => {
      const { projectId, branchId } = makeProject(sim);
      return (ctx) => retriesLockedAtOnce(ctx, projectId, branchId);
    },
    judgedBy: 'retriesWithBackoff',
  },
  {
    name: 'ignoresRetryAfter',
    bugClass: '5',
    summary: 'sets every suspend timeout; retries 429 after a fixed 500 ms',
    prepare: (sim) => {
      const { projectId } = makeProject(sim);
      return (ctx) => ignoresRetryAfter(ctx, projectId);
    },
    judgedBy: 'retriesWithBackoff',
  },
  {
    name: 'pollsEverySecond',
    bugClass: '6',
    summary: 'restarts the primary; polls its operations every 1 s',
    prepare: (sim) => {
      const { projectId, branchId } = makeProject(sim);
      return (ctx) => pollsEverySecond(ctx, projectId, branchId);
    },
    judgedBy: 'pollsNoFasterThan',
  },
  {
    name: 'failedAsFinished',
    bugClass: '7',
    summary: 'resizes then restarts the primary; a failed operation counts as done',
    prepare: (sim) => {
      const { projectId, branchId } = makeProject(sim);
      return (ctx) => failedAsFinished(ctx, projectId, branchId);
    },
    judgedBy: 'handlesFailedOperations',
  },
  {
    name: 'firstComputeForWrites',
    bugClass: '8',
    summary: 'loads batches through the first compute listed on a branch others provision',
    prepare: (sim) => {
      const { projectId, branchId } = makeBranch(sim, 'analytics', false);
      return (ctx) => firstComputeForWrites(ctx, projectId, branchId);
    },
    judgedBy: 'usesReadWriteForWrites',
  },
  {
    name: 'throwsOn5xx',
    bugClass: '9',
    summary: 'creates a CI branch with its compute; throws on any 5xx',
    prepare: (sim) => {
      const { projectId } = makeProject(sim);
      return (ctx) => throwsOn5xx(ctx, projectId, 1);
    },
    judgedBy: 'retriesWithBackoff',
  },
  {
    name: 'queriesBeforeStarted',
    bugClass: '10',
    summary: 'starts the idle primary and runs the report on it before the start ended',
    prepare: (sim) => {
      const { projectId, branchId } = makeProject(sim);
      return (ctx) => queriesBeforeStarted(ctx, projectId, branchId);
    },
    shows: (verdict) =>
      anOracle(verdict) ||
      (verdict.run.error instanceof SqlFailed && verdict.run.error.sqlstate === '08003'),
    judgedBy: 'waitsForOpenConnections',
  },
  {
    name: 'restartsDeletedEndpoint',
    bugClass: '11',
    summary: 'deletes a preview branch, then restarts the compute it had',
    prepare: (sim) => {
      const { projectId, branchId } = makeBranch(sim, 'preview', true);
      return (ctx) => restartsDeletedEndpoint(ctx, projectId, branchId);
    },
    shows: (verdict) =>
      anOracle(verdict) ||
      (verdict.run.error instanceof ApiError &&
        verdict.run.error.status === 404 &&
        verdict.run.error.path.endsWith('/restart')),
    judgedBy: 'usesLiveIds',
  },
  {
    name: 'pollsWithoutDeadline',
    bugClass: '12',
    summary: 'restarts the primary; polls its operations with no deadline',
    prepare: (sim) => {
      const { projectId, branchId } = makeProject(sim);
      return (ctx) => pollsWithoutDeadline(ctx, projectId, branchId);
    },
    shows: (verdict) => anOracle(verdict) || verdict.run.outcome === 'timed_out',
    judgedBy: 'timed_out',
  },
];

/** The careful clients: correct by the spec, doing real jobs. */
export const CAREFUL_CLIENTS: readonly CorpusEntry[] = [
  {
    name: 'onboardTenant',
    bugClass: 'careful',
    summary: 'a project, a role and a database for a new tenant; started over after a failure',
    prepare: () => (ctx) => onboardTenant(ctx, 'acme'),
  },
  {
    name: 'previewBranch',
    bugClass: 'careful',
    summary: 'a preview branch: migration and tests on it, then deleted; cleaned up on failure',
    prepare: (sim) => {
      const { projectId } = makeProject(sim);
      return (ctx) => previewBranch(ctx, projectId, 47);
    },
  },
  {
    name: 'resetAndResize',
    bugClass: 'careful',
    summary: "a staging branch reset to its parent, then its compute's autoscaling range set",
    prepare: (sim) => {
      const { projectId, parentId, branchId } = makeBranch(sim, 'staging', true);
      return (ctx) => resetAndResize(ctx, projectId, branchId, parentId);
    },
  },
  {
    name: 'sdkMaintenance',
    bugClass: 'careful',
    summary: 'through the SDK: every compute of a project reconfigured and restarted',
    prepare: (sim) => {
      const { projectId } = makeBranch(sim, 'staging', true);
      return (ctx) => sdkMaintenance(ctx, projectId);
    },
  },
];
