/**
 * GET /consumption_history/projects: per project, its usage in each timeframe of a range, from the
 * state at each frame boundary (`stateAt`), so a frame's figures are the growth of the project's
 * counters over it and the frames add up to the counters of the project record. Frames that start
 * after the virtual now are left out; one still running is counted up to now. Storage and written
 * data are not modelled (0).
 */
import { hashString } from '../../core/hash.js';
import { formatInstant, tryParseInstant } from '../../core/instant.js';
import { RandomSource } from '../../core/randomSource.js';
import { reject } from '../../domain/rejection.js';
import { SIMULATED_ORG } from '../../domain/simulatedAccount.js';
import type { SimState } from '../../model/state.js';
import { projectUsageAt } from '../../model/usage.js';
import { errorResponse, type ApiResponse } from '../apiResponse.js';
import {
  CONSUMPTION_GRANULARITIES,
  timeframes,
  type ConsumptionGranularity,
} from '../consumptionTimeframes.js';
import type { Route } from '../route.js';

/**
 * The metrics a frame may report; it always reports the first four (the schema requires them), and
 * the others the query names in `metrics`.
 */
const METRICS = [
  'active_time_seconds',
  'compute_time_seconds',
  'written_data_bytes',
  'synthetic_storage_size_bytes',
  'data_storage_bytes_hour',
  'logical_size_bytes',
  'logical_size_bytes_hour',
] as const;
const ALWAYS = METRICS.slice(0, 4);
const PROJECT_ID = /^[a-z0-9-]{1,60}$/;

/** GET /consumption_history/projects?from=&to=&granularity=&project_ids=&limit=&cursor=&metrics= */
export const projectConsumptionRoute: Route = {
  method: 'GET',
  pattern: '/consumption_history/projects',
  handle({ query, target, onlyProject }) {
    const invalid = (message: string) => errorResponse(reject('invalid_input', message));
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
      return errorResponse(reject('not_found', `organization ${orgId} not found`));
    const ids = listParam(query.getAll('project_ids'));
    const badId = ids.find((id) => !PROJECT_ID.test(id));
    if (badId !== undefined) return invalid(`project_ids: ${badId} is not a project id`);
    const metrics = listParam(query.getAll('metrics'));
    const unknownMetric = metrics.find((m) => !(METRICS as readonly string[]).includes(m));
    if (unknownMetric !== undefined)
      return invalid(`metrics: unknown metric ${unknownMetric}; known: ${METRICS.join(', ')}`);
    const frames = timeframes(from.value, to.value, granularity);
    if (!frames.ok) return outOfRange(frames.error);

    const all = Object.values(target.state.projects).filter(
      (p) =>
        (onlyProject === undefined || p.id === onlyProject) &&
        (ids.length === 0 || ids.includes(p.id)),
    );
    const cursor = query.get('cursor');
    const first = cursor === null ? 0 : all.findIndex((p) => p.id === cursor) + 1;
    if (cursor !== null && first === 0)
      return invalid(`cursor ${JSON.stringify(cursor)} is not a project id from a previous page`);
    const page = all.slice(first, first + limit);

    const now = target.now;
    const shown = frames.value.filter((frame) => frame.start <= now);
    // One state per boundary, shared by every project of the page.
    const boundaries = [...new Set(shown.flatMap((f) => [f.start, f.end]))];
    const states = new Map<number, SimState>();
    const clamp = (t: number) => Math.min(Math.max(t, target.start), now);
    for (const t of boundaries) states.set(t, target.stateAt(clamp(t)));
    /** The project's counters at `t`, whole seconds (0 before it existed). */
    const countersAt = (projectId: string, t: number) => {
      const project = (states.get(t) as SimState).projects[projectId];
      if (project === undefined) return { active: 0, compute: 0 };
      const usage = projectUsageAt(project, clamp(t));
      return { active: Math.floor(usage.activeMs / 1000), compute: Math.floor(usage.cuMs / 1000) };
    };
    const wanted = METRICS.filter((m) => ALWAYS.includes(m) || metrics.includes(m));
    const last = page[page.length - 1];
    return {
      status: 200,
      body: {
        projects: page.map((project) => ({
          project_id: project.id,
          periods: [
            {
              period_id: RandomSource.derive(hashString(project.id), 'consumptionPeriod', 0).uuid(),
              period_plan: project.plan,
              period_start: formatInstant(project.createdAt),
              consumption: shown.map((frame) => {
                const before = countersAt(project.id, frame.start);
                const after = countersAt(project.id, frame.end);
                const values: Record<string, number> = {
                  active_time_seconds: after.active - before.active,
                  compute_time_seconds: after.compute - before.compute,
                };
                return {
                  timeframe_start: formatInstant(frame.start),
                  timeframe_end: formatInstant(frame.end),
                  ...Object.fromEntries(wanted.map((m) => [m, values[m] ?? 0])),
                };
              }),
            },
          ],
        })),
        ...(last === undefined ? {} : { pagination: { cursor: last.id } }),
      },
    };
  },
};

/** A list query parameter, given repeated or comma-separated. */
function listParam(values: readonly string[]): string[] {
  return values.flatMap((value) => value.split(',')).filter((value) => value !== '');
}

/** 406: the range is outside what the granularity allows (the real service's status). */
function outOfRange(message: string): ApiResponse {
  return { status: 406, body: { code: 'not_acceptable', message } };
}
