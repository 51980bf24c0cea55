/**
 * Careful: onboarding a tenant. A project of its own, a role for the application and a database it
 * owns, each change waited for. An attempt whose operations end badly is cleaned up (the project
 * deleted) and the onboarding starts over, up to three times; the whole job has two hours.
 */
import type { ClientContext } from '../../../../src/testing/index.js';
import { ApiError, neonApi, OperationFailed, type Operation } from '../neonApi.js';

/** What the tenant gets. */
export interface Tenant {
  readonly projectId: string;
  readonly branchId: string;
  readonly role: string;
  readonly database: string;
}

interface Created {
  readonly project: { readonly id: string };
  readonly branch: { readonly id: string };
  readonly operations: readonly Operation[];
}

/** Onboards tenant `name`; throws when three attempts failed. */
export async function onboardTenant(ctx: ClientContext, name: string): Promise<Tenant> {
  const api = neonApi(ctx, { deadline: ctx.now() + 7_200_000 });
  let lastFailure: unknown;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const created = await api.request<Created>('POST', '/projects', {
      project: { name: `tenant-${name}` },
    });
    const projectId = created.project.id;
    const branch = `/projects/${projectId}/branches/${created.branch.id}`;
    try {
      await api.settle(created.operations);
      const role = await api.request<{ operations: Operation[] }>('POST', `${branch}/roles`, {
        role: { name: 'app' },
      });
      await api.settle(role.operations);
      const database = await api.request<{ operations: Operation[] }>(
        'POST',
        `${branch}/databases`,
        { database: { name: 'app', owner_name: 'app' } },
      );
      await api.settle(database.operations);
      return { projectId, branchId: created.branch.id, role: 'app', database: 'app' };
    } catch (error) {
      // A step failed (an operation ended badly, the branch was taken away under it): the tenant's
      // project is half made, so it goes, and the onboarding starts over.
      if (!(error instanceof OperationFailed || error instanceof ApiError)) throw error;
      lastFailure = error;
      const deleted = await api.request<{ operations?: Operation[] }>(
        'DELETE',
        `/projects/${projectId}`,
      );
      await api.waitFor(deleted.operations);
    }
  }
  throw new Error(`onboarding ${name} failed three times: ${String(lastFailure)}`);
}
