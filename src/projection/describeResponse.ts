/**
 * One line for an API response in a narrated timeline: the status, then what it returned or created,
 * or why it was refused.
 */
import type { ApiResponse } from '../api/apiResponse.js';

const SINGULAR = { projects: 'project', branches: 'branch', endpoints: 'compute' } as const;

/** `201: project p-1, branch br-2, compute ep-3, 2 operations to wait for (…)`, or `423 locked: …`. */
export function describeResponse(method: string, response: ApiResponse): string {
  const body = (response.body ?? {}) as Record<string, unknown>;
  if (response.status >= 400)
    return `${response.status} ${String(body['code'])}: ${String(body['message'])}`;
  const parts: string[] = [];
  for (const key of ['project', 'branch', 'endpoint'] as const) {
    const id = idOf(body[key]);
    if (id !== undefined) parts.push(`${key === 'endpoint' ? 'compute' : key} ${id}`);
  }
  const operation = body['operation'] as { action?: unknown; status?: unknown } | undefined;
  if (operation !== undefined)
    parts.push(`operation ${String(operation.action)} is ${String(operation.status)}`);
  for (const key of ['projects', 'branches', 'endpoints'] as const) {
    const list = body[key];
    if (!Array.isArray(list)) continue;
    const ids = list.map(idOf);
    parts.push(
      list.length <= 3
        ? ids.map((id) => `${SINGULAR[key]} ${id}`).join(', ')
        : `${list.length} ${key}`,
    );
  }
  const operations = body['operations'];
  if (Array.isArray(operations) && operations.length > 0) {
    const actions = operations.map((o: { action?: unknown }) => String(o.action)).join(', ');
    const plural = operations.length === 1 ? '' : 's';
    const wait = method.toUpperCase() === 'GET' ? '' : ' to wait for';
    parts.push(`${operations.length} operation${plural}${wait} (${actions})`);
  }
  const shown = parts.filter((p) => p !== '');
  return shown.length === 0 ? `${response.status}` : `${response.status}: ${shown.join(', ')}`;
}

function idOf(value: unknown): string | undefined {
  const id = (value as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}
