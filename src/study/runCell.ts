/**
 * Runs one cell in this thread, loading the definition file it names once and planning a sweep once
 * per set of options, so a long-lived worker pays for neither again.
 */
import type { FleetMetrics } from '../projection/metrics.js';
import { displayPath, loadDefinition } from '../definitions/loadDefinition.js';
import type { CellTask, FleetCell } from './cellTask.js';
import { FLEET_FILE, type FleetDefinition } from './fleet.js';
import type { FleetPart } from './fleetPart.js';
import { fleetFingerprint, runFleetRange } from './fleetRun.js';
import { runStudy } from './runStudy.js';
import { STUDY_FILE, type StudyDefinition } from './study.js';
import { planSweep, type SweepOptions, type SweepPlan } from './sweepPlan.js';
import { shapeFingerprint, sweepShape } from './sweepResult.js';

/** What a cell gives: a run's fleet metrics, or a fleet range's mergeable part. */
export type CellResult = FleetMetrics | FleetPart;

/** Runs cells, remembering the definitions and plans it loaded. */
export class CellRunner {
  readonly #studies = new Map<string, Promise<StudyDefinition<unknown>>>();
  readonly #fleets = new Map<string, Promise<FleetDefinition>>();
  readonly #plans = new Map<string, SweepPlan<unknown>>();

  /** The plan of a sweep cell (loaded and planned once per file and options). */
  async plan(url: string, options: SweepOptions): Promise<SweepPlan<unknown>> {
    const key = `${url}\n${JSON.stringify(options)}`;
    let plan = this.#plans.get(key);
    if (plan === undefined) {
      plan = planSweep(
        await load(this.#studies, url, () => loadDefinition(url, STUDY_FILE)),
        options,
      );
      this.#plans.set(key, plan);
    }
    return plan;
  }

  /** The fleet of a fleet cell, with the cell's span (loaded once per file). */
  async fleet(task: FleetCell): Promise<FleetDefinition> {
    const fleet = await load(this.#fleets, task.url, () => loadDefinition(task.url, FLEET_FILE));
    return task.duration === undefined ? fleet : { ...fleet, duration: task.duration };
  }

  /**
   * What identifies the work a cell belongs to (the sweep's shape, the fleet's name, size and span),
   * so a cell made from one version of a file is not run against another.
   */
  async fingerprint(task: CellTask): Promise<string> {
    if (task.kind === 'fleet') {
      return fleetFingerprint(await this.fleet(task));
    }
    return shapeFingerprint(sweepShape(await this.plan(task.url, task.options)));
  }

  /** Runs `task`; rejects with the error that stopped it. */
  async run(task: CellTask): Promise<CellResult> {
    if (task.expect !== undefined && task.expect !== (await this.fingerprint(task)))
      throw new RangeError(
        `${displayPath(task.url)} here is not the file the work was made from (it differs in what it runs)`,
      );
    if (task.kind === 'fleet') return runFleetRange(await this.fleet(task), task.from, task.to);
    const plan = await this.plan(task.url, task.options);
    const cell = plan.tasks[task.index];
    if (cell === undefined) throw new RangeError(`no run ${task.index + 1} in this sweep`);
    return runStudy(plan.study, plan.points[cell.point]!, cell.seed);
  }
}

function load<T>(
  cache: Map<string, Promise<T>>,
  url: string,
  loader: () => Promise<T>,
): Promise<T> {
  let loaded = cache.get(url);
  if (loaded === undefined) {
    loaded = loader();
    cache.set(url, loaded);
  }
  return loaded;
}
