/**
 * fast-check arbitraries for request bodies: valid ones the API accepts on a paid plan, and invalid
 * ones it must refuse with a 4xx (wrong types, unknown sizes, malformed fields).
 */
import fc from 'fast-check';
import {
  autoscalingRange,
  invalidAutoscalingRange,
  suspendTimeoutSeconds,
} from './computeArbitraries.js';

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);

/** A valid `POST /projects` body. */
export function createProjectBody(): fc.Arbitrary<object> {
  return fc.record(
    {
      project: fc.record(
        {
          name,
          default_endpoint_settings: autoscalingRange().map(({ minCu, maxCu }) => ({
            autoscaling_limit_min_cu: minCu,
            autoscaling_limit_max_cu: maxCu,
          })),
        },
        { requiredKeys: [] },
      ),
    },
    // `project` itself is required by the public schema (its fields are not).
  );
}

/** A `POST /projects` body the API must refuse. */
export function invalidCreateProjectBody(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>([], 'project', 42, { project: 'x' }, { project: [] }),
    fc.record({ project: fc.record({ name: fc.oneof(fc.integer(), fc.boolean()) }) }),
    invalidAutoscalingRange().map(({ minCu, maxCu }) => ({
      project: {
        default_endpoint_settings: {
          autoscaling_limit_min_cu: minCu,
          autoscaling_limit_max_cu: maxCu,
        },
      },
    })),
  );
}

/** A valid `PATCH /projects/{id}/endpoints/{id}` body (sizes and suspend timeout). */
export function updateEndpointBody(): fc.Arbitrary<object> {
  return fc
    .record({ range: autoscalingRange(), suspend: suspendTimeoutSeconds() }, { requiredKeys: [] })
    .map(({ range, suspend }) => ({
      endpoint: {
        ...(range === undefined
          ? {}
          : { autoscaling_limit_min_cu: range.minCu, autoscaling_limit_max_cu: range.maxCu }),
        ...(suspend === undefined ? {} : { suspend_timeout_seconds: suspend }),
      },
    }));
}

/** A `PATCH` endpoint body the API must refuse. */
export function invalidUpdateEndpointBody(): fc.Arbitrary<unknown> {
  return fc.oneof(
    invalidAutoscalingRange().map(({ minCu, maxCu }) => ({
      endpoint: { autoscaling_limit_min_cu: minCu, autoscaling_limit_max_cu: maxCu },
    })),
    fc.constantFrom<unknown>(
      { endpoint: { suspend_timeout_seconds: 5 } },
      { endpoint: { suspend_timeout_seconds: 'soon' } },
      { endpoint: { autoscaling_limit_min_cu: 'big' } },
      { endpoint: [] },
      'endpoint',
    ),
  );
}

/** A valid `POST /projects/{id}/endpoints` body for a branch (read_write or read_only). */
export function createEndpointBody(branchId: string): fc.Arbitrary<object> {
  return fc
    .record({ type: fc.constantFrom('read_write', 'read_only'), range: autoscalingRange() })
    .map(({ type, range }) => ({
      endpoint: {
        branch_id: branchId,
        type,
        autoscaling_limit_min_cu: range.minCu,
        autoscaling_limit_max_cu: range.maxCu,
      },
    }));
}

/**
 * A role or database name the API accepts: 1 to 63 bytes of letters (any script), digits, `_`, `-`
 * and spaces, not starting with `pg_` (for roles) or naming a database every cluster has.
 */
function pgName(): fc.Arbitrary<string> {
  return fc
    .string({
      unit: fc.constantFrom(...'abcxyz_-09 ', 'é', 'ß', 'Ж', '名'),
      minLength: 1,
      maxLength: 21,
    })
    .filter(
      (name) =>
        !name.startsWith('pg_') &&
        !['public', 'none', 'postgres', 'template0', 'template1'].includes(name) &&
        new TextEncoder().encode(name).length <= 63,
    );
}

/** A valid `POST …/branches/{id}/roles` body (the name may still be taken on the branch: 409). */
export function createRoleBody(): fc.Arbitrary<object> {
  return pgName().map((name) => ({ role: { name } }));
}

/** A `POST …/branches/{id}/roles` body the API must refuse with 400, whatever the branch holds. */
export function invalidCreateRoleBody(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>(
      {},
      { role: {} },
      { role: { name: '' } },
      { role: { name: 42 } },
      { role: 'app' },
      { role: { name: 'pg_app' } },
      [],
    ),
    fc.integer({ min: 64, max: 200 }).map((length) => ({ role: { name: 'r'.repeat(length) } })),
  );
}

/** A valid `POST …/branches/{id}/databases` body owned by `ownerName` (a role of the branch). */
export function createDatabaseBody(ownerName: string): fc.Arbitrary<object> {
  return pgName().map((name) => ({ database: { name, owner_name: ownerName } }));
}

/** A `POST …/branches/{id}/databases` body the API must refuse with 400, whatever the branch holds. */
export function invalidCreateDatabaseBody(ownerName: string): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>(
      {},
      { database: { name: 'app' } },
      { database: { owner_name: ownerName } },
      { database: { name: 'template1', owner_name: ownerName } },
      { database: { name: '', owner_name: ownerName } },
      { database: { name: 7, owner_name: ownerName } },
    ),
    fc.integer({ min: 64, max: 200 }).map((length) => ({
      database: { name: 'd'.repeat(length), owner_name: ownerName },
    })),
  );
}
