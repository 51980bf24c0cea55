/**
 * A small client of the API, as a user would write one: prepare a branch's primary compute for a
 * migration (make sure it exists, give it room to autoscale, connect for writes, restart it). The
 * `bugs` switch turns on one deliberate mistake at a time, for the examples to catch.
 */
import type { ClientContext } from '../../../src/testing/index.js';

/** A deliberate mistake of the client. */
export type Bug = 'ignoresLocked' | 'doesNotWait' | 'firstCompute';

/** What the client is asked to do. */
export interface MigrationTask {
  readonly projectId: string;
  readonly branchId: string;
}

interface Endpoint {
  readonly id: string;
  readonly branch_id: string;
  readonly type: 'read_write' | 'read_only';
}

/** Runs the task; returns the compute it migrated. Throws when the API says something failed. */
export async function migrate(ctx: ClientContext, task: MigrationTask, bug?: Bug): Promise<string> {
  const api = (method: string, path: string, body?: unknown) =>
    send(ctx, method, `/projects/${task.projectId}${path}`, body, bug);
  const wait = async (operations: readonly { id: string }[]) => {
    if (bug !== 'doesNotWait') await waitFor(ctx, task.projectId, operations);
  };

  const listed = await api('GET', '/endpoints');
  const onBranch = (listed.endpoints as Endpoint[]).filter((e) => e.branch_id === task.branchId);
  let primary =
    bug === 'firstCompute' ? onBranch[0] : onBranch.find((e) => e.type === 'read_write');
  if (primary === undefined) {
    const created = await api('POST', '/endpoints', {
      endpoint: { branch_id: task.branchId, type: 'read_write' },
    });
    primary = created.endpoint as Endpoint;
    await wait(created.operations ?? []);
  }
  const resized = await api('PATCH', `/endpoints/${primary.id}`, {
    endpoint: { autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 2 },
  });
  await wait(resized.operations ?? []);
  const connection = ctx.connect(primary.id, { purpose: 'write' });
  await ctx.sleep(30_000);
  connection.close();
  const restarted = await api('POST', `/endpoints/${primary.id}/restart`);
  await wait(restarted.operations ?? []);
  return primary.id;
}

/**
 * One request, retried on 422, 423, 429 and 5xx with exponential backoff from 1 s (at least `Retry-After`,
 * and at least the 5 s polling interval for a repeated GET). Other errors throw.
 */
async function send(
  ctx: ClientContext,
  method: string,
  path: string,
  body: unknown,
  bug: Bug | undefined,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<any> {
  let delay = 1_000;
  for (let attempt = 0; ; attempt++) {
    const response = await ctx.fetch(`${ctx.baseURL}${path}`, {
      method,
      headers: { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const json: any = response.status === 204 ? {} : await response.json();
    if (response.ok) return json;
    // Refusals for now: locked, branch not ready yet, rate limited, the service unavailable.
    const refused = [422, 423, 429].includes(response.status) || response.status >= 500;
    if (bug === 'ignoresLocked' && response.status === 423) return json;
    if (!refused || attempt === 8)
      throw new Error(`${method} ${path}: ${response.status} ${json.code}`);
    const retryAfter = Number(response.headers.get('retry-after') ?? 0) * 1000;
    await ctx.sleep(Math.max(delay, retryAfter, method === 'GET' ? 5_000 : 0));
    delay *= 2;
  }
}

/** Polls each operation every 5 s until it finishes; a failed one is a failure (spec). */
async function waitFor(
  ctx: ClientContext,
  projectId: string,
  operations: readonly { id: string }[],
): Promise<void> {
  for (const { id } of operations) {
    for (;;) {
      const { operation } = await send(
        ctx,
        'GET',
        `/projects/${projectId}/operations/${id}`,
        undefined,
        undefined,
      );
      if (operation.status === 'finished' || operation.status === 'skipped') break;
      if (['failed', 'error', 'cancelled'].includes(operation.status))
        throw new Error(`operation ${id} (${operation.action}) ${operation.status}`);
      await ctx.sleep(5_000);
    }
  }
}
