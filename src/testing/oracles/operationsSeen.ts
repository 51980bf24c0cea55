/**
 * What a client has been told about operations: every operation record in its 2xx answers (a single
 * `operation` or an `operations` list), with the last status it saw.
 */
import type { RecordedRequest } from '../clientRecord.js';

/** An operation as the client saw it. */
export interface SeenOperation {
  readonly id: string;
  readonly action?: string;
  readonly status: string;
  /** The project the operation belongs to, as its record says (`project_id`). */
  readonly projectId?: string;
}

/** The operation records in a successful answer. */
export function operationsIn(request: RecordedRequest): SeenOperation[] {
  if (request.status < 200 || request.status >= 300) return [];
  const body = request.response as { operation?: unknown; operations?: unknown } | undefined;
  const records = [
    ...(body?.operation === undefined ? [] : [body.operation]),
    ...(Array.isArray(body?.operations) ? (body.operations as unknown[]) : []),
  ];
  const seen: SeenOperation[] = [];
  for (const record of records) {
    const { id, action, status, project_id } = (record ?? {}) as Record<string, unknown>;
    if (typeof id === 'string' && typeof status === 'string')
      seen.push({
        id,
        status,
        ...(typeof action === 'string' ? { action } : {}),
        ...(typeof project_id === 'string' ? { projectId: project_id } : {}),
      });
  }
  return seen;
}

/** Statuses of an operation that ended well. */
export const SUCCESS_STATUSES: ReadonlySet<string> = new Set(['finished', 'skipped']);

/** Statuses after which an operation changes no more (fidelity.md). */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set([
  'finished',
  'skipped',
  'error',
  'cancelled',
]);

/** Statuses the spec asks clients to handle as a failure. */
export const FAILURE_STATUSES: ReadonlySet<string> = new Set(['failed', 'error', 'cancelled']);
