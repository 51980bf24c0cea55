/**
 * Careful: a preview branch for a pull request. A branch with its own read_write compute, waited
 * for; the migration run on it for writes and the tests for reads; then the branch deleted.
 * Whatever fails on the way (an operation that ended badly, the compute taken away, a statement
 * cut for good), the branch is cleaned up before the next try, up to three; the job has two hours.
 */
import type { ClientContext } from '../../../../src/testing/index.js';
import {
  isNotFound,
  neonApi,
  OperationFailed,
  runStatement,
  SqlFailed,
  type Endpoint,
  type NeonApi,
  type Operation,
} from '../neonApi.js';

interface CreatedBranch {
  readonly branch: { readonly id: string };
  readonly endpoints: readonly Endpoint[];
  readonly operations: readonly Operation[];
}

/** Runs pull request `pr`'s migration and tests on a preview branch; returns the tries it took. */
export async function previewBranch(
  ctx: ClientContext,
  projectId: string,
  pr: number,
): Promise<number> {
  const deadline = ctx.now() + 7_200_000;
  const api = neonApi(ctx, { deadline });
  let lastFailure: unknown;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const created = await api.request<CreatedBranch>('POST', `/projects/${projectId}/branches`, {
      branch: { name: `preview/pr-${pr}-${attempt}` },
      endpoints: [{ type: 'read_write' }],
    });
    let passed = false;
    try {
      await api.settle(created.operations);
      const compute = created.endpoints[0];
      if (compute === undefined) throw new Error('the preview branch came without its compute');
      await runStatement(ctx, compute.id, 'write', 20_000, deadline); // the migration
      await runStatement(ctx, compute.id, 'read', 10_000, deadline); // the tests
      passed = true;
    } catch (error) {
      if (!(error instanceof OperationFailed || error instanceof SqlFailed || isNotFound(error)))
        throw error;
      lastFailure = error;
    }
    await removeBranch(api, projectId, created.branch.id);
    if (passed) return attempt;
  }
  throw new Error(`the preview of #${pr} failed three times: ${String(lastFailure)}`);
}

/** Deletes a branch and waits for it; a branch already gone is fine. */
async function removeBranch(api: NeonApi, projectId: string, branchId: string): Promise<void> {
  try {
    await api.change('DELETE', `/projects/${projectId}/branches/${branchId}`);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}
