/**
 * GET /consumption_history/projects: per project, its usage in each timeframe of a range, from the
 * state at each frame boundary (`stateAt`), so a frame's figures are the growth of the project's
 * counters over it and the frames add up to the counters of the project record. Frames that start
 * after the virtual now are left out; one still running is counted up to now. Storage and written
 * data are not modelled (0).
 */
import { hashString } from '../../core/hash.js';
import { formatInstant } from '../../core/instant.js';
import { RandomSource } from '../../core/randomSource.js';
import type { ProjectState, SimState } from '../../model/state.js';
import { projectUsageAt } from '../../model/usage.js';
import { reject } from '../../domain/rejection.js';
import { errorResponse } from '../apiResponse.js';
import { pageAfter } from './listingQuery.js';
import { readConsumptionQuery, type ConsumptionMetric } from '../consumptionQuery.js';
import type { Timeframe } from '../consumptionTimeframes.js';
import type { RequestTarget } from '../requestTarget.js';
import type { Route } from '../route.js';

/** GET /consumption_history/projects?from=&to=&granularity=&project_ids=&limit=&cursor=&metrics= */
export const projectConsumptionRoute: Route = {
  method: 'GET',
  pattern: '/consumption_history/projects',
  handle({ query, target, onlyProject }) {
    const read = readConsumptionQuery(query);
    if (!read.ok) return read.error;
    const { frames, projectIds, metrics, limit, cursor } = read.value;
    const all = Object.values(target.state.projects).filter(
      (p) =>
        (onlyProject === undefined || p.id === onlyProject) &&
        (projectIds.length === 0 || projectIds.includes(p.id)),
    );
    const paged = pageAfter(all, cursor, limit);
    if (!paged.ok) return errorResponse(paged.error);
    const page = paged.value;
    const shown = frames.filter((frame) => frame.start <= target.now);
    if (!target.keepsHistory && shown.some((frame) => frame.start < target.now))
      return errorResponse(
        reject(
          'conflict',
          'consumption history rebuilds past states from the event log, and this simulation keeps ' +
            "none in memory (log: 'none', or streamed to a file): keep it in memory (log: 'memory'), " +
            'or read the streamed file with metricsOf',
        ),
      );
    const counters = new CountersAtBoundaries(target, shown);
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
              consumption: shown.map((frame) => frameDto(project, frame, counters, metrics)),
            },
          ],
        })),
        ...(last === undefined ? {} : { pagination: { cursor: last.id } }),
      },
    };
  },
};

/** One timeframe of a project as the API reports it: the growth of its counters over the frame. */
function frameDto(
  project: ProjectState,
  frame: Timeframe,
  counters: CountersAtBoundaries,
  metrics: readonly ConsumptionMetric[],
): Record<string, unknown> {
  const before = counters.at(project.id, frame.start);
  const after = counters.at(project.id, frame.end);
  const values: Partial<Record<ConsumptionMetric, number>> = {
    active_time_seconds: after.activeSeconds - before.activeSeconds,
    compute_time_seconds: after.cuSeconds - before.cuSeconds,
  };
  return {
    timeframe_start: formatInstant(frame.start),
    timeframe_end: formatInstant(frame.end),
    ...Object.fromEntries(metrics.map((m) => [m, values[m] ?? 0])),
  };
}

/**
 * Projects' counters at the bounds of some frames, whole seconds: the state at each bound is
 * rebuilt once (clamped to the simulation's span) and shared by every project of the page.
 */
class CountersAtBoundaries {
  readonly #states = new Map<number, SimState>();

  constructor(
    readonly target: RequestTarget,
    frames: readonly Timeframe[],
  ) {
    for (const frame of frames)
      for (const t of [frame.start, frame.end])
        if (!this.#states.has(t)) this.#states.set(t, target.stateAt(this.#clamp(t)));
  }

  /** The counters of `projectId` at `t` (a bound of one of the frames); 0 before it existed. */
  at(projectId: string, t: number): { activeSeconds: number; cuSeconds: number } {
    const project = this.#states.get(t)?.projects[projectId];
    if (project === undefined) return { activeSeconds: 0, cuSeconds: 0 };
    const usage = projectUsageAt(project, this.#clamp(t));
    return {
      activeSeconds: Math.floor(usage.activeMs / 1000),
      cuSeconds: Math.floor(usage.cuMs / 1000),
    };
  }

  #clamp(t: number): number {
    return Math.min(Math.max(t, this.target.start), this.target.now);
  }
}
