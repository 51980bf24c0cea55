/**
 * The query of `GET /consumption_history/projects`, read and checked: the range and granularity
 * (required), the projects and metrics (repeated or comma-separated), the page, the organization.
 * A bad query is the error response to send (400; 404 for another organization; 406 for a range
 * beyond what the granularity reaches).
 */
import { err, ok, type Result } from '../core/result.js';
import { tryParseInstant } from '../core/instant.js';
import { reject } from '../domain/rejection.js';
import { SIMULATED_ORG } from '../domain/simulatedAccount.js';
import { errorResponse, type ApiResponse } from './apiResponse.js';
import {
  CONSUMPTION_GRANULARITIES,
  timeframes,
  type ConsumptionGranularity,
  type Timeframe,
} from './consumptionTimeframes.js';

/**
 * The metrics a frame may report; it always reports the first four (the schema requires them), and
 * the others the query names in `metrics`.
 */
const CONSUMPTION_METRICS = [
  'active_time_seconds',
  'compute_time_seconds',
  'written_data_bytes',
  'synthetic_storage_size_bytes',
  'data_storage_bytes_hour',
  'logical_size_bytes',
  'logical_size_bytes_hour',
] as const;

/** A metric a frame may report. */
export type ConsumptionMetric = (typeof CONSUMPTION_METRICS)[number];

const ALWAYS: readonly ConsumptionMetric[] = CONSUMPTION_METRICS.slice(0, 4);
const PROJECT_ID = /^[a-z0-9-]{1,60}$/;

/** A checked query. */
export interface ConsumptionQuery {
  /** The frames of the range, in order (future ones included). */
  readonly frames: readonly Timeframe[];
  /** Only these projects (empty: every project). */
  readonly projectIds: readonly string[];
  /** The metrics each frame reports. */
  readonly metrics: readonly ConsumptionMetric[];
  readonly limit: number;
  /** The last project id of the previous page, if any. */
  readonly cursor: string | undefined;
}

/** Reads `query`; the error is the response to send. */
export function readConsumptionQuery(
  query: URLSearchParams,
): Result<ConsumptionQuery, ApiResponse> {
  const invalid = (message: string) => err(errorResponse(reject('invalid_input', message)));
  const from = tryParseInstant(query.get('from') ?? '');
  if (!from.ok) return invalid(`from is required, a date-time: ${from.error}`);
  const to = tryParseInstant(query.get('to') ?? '');
  if (!to.ok) return invalid(`to is required, a date-time: ${to.error}`);
  if (to.value <= from.value) return invalid('to must be after from');
  const granularity = query.get('granularity') as ConsumptionGranularity | null;
  if (granularity === null || !CONSUMPTION_GRANULARITIES.includes(granularity))
    return invalid(`granularity is required, one of ${CONSUMPTION_GRANULARITIES.join(', ')}`);
  const limitText = query.get('limit');
  const limit = limitText === null ? 10 : Number(limitText);
  if (!/^\d+$/.test(limitText ?? '1') || limit < 1 || limit > 100)
    return invalid(`limit must be a whole number from 1 to 100, got ${String(limitText)}`);
  const orgId = query.get('org_id');
  if (orgId !== null && orgId !== SIMULATED_ORG.id)
    return err(errorResponse(reject('not_found', `organization ${orgId} not found`)));
  const projectIds = listParam(query.getAll('project_ids'));
  const badId = projectIds.find((id) => !PROJECT_ID.test(id));
  if (badId !== undefined) return invalid(`project_ids: ${badId} is not a project id`);
  const named = listParam(query.getAll('metrics'));
  const unknown = named.find((m) => !(CONSUMPTION_METRICS as readonly string[]).includes(m));
  if (unknown !== undefined)
    return invalid(`metrics: unknown metric ${unknown}; known: ${CONSUMPTION_METRICS.join(', ')}`);
  const frames = timeframes(from.value, to.value, granularity);
  // 406 is the real service's status for a range beyond what the granularity reaches.
  if (!frames.ok)
    return err({ status: 406, body: { code: 'not_acceptable', message: frames.error } });
  return ok({
    frames: frames.value,
    projectIds,
    metrics: CONSUMPTION_METRICS.filter((m) => ALWAYS.includes(m) || named.includes(m)),
    limit,
    cursor: query.get('cursor') ?? undefined,
  });
}

/** A list query parameter, given repeated or comma-separated. */
function listParam(values: readonly string[]): string[] {
  return values.flatMap((value) => value.split(',')).filter((value) => value !== '');
}
