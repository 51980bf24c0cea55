/**
 * Lanes of the same computes under several arms (a run and its fork, or a study's configurations),
 * paired for one lane chart: each compute's lane in the first arm, then its lane in every other arm
 * (matched by compute id: the same seed and setup give the same ids), so the arms read top to bottom.
 */
import type { ComputeLane } from '../../projection/computeLanes.js';

/** One arm's lanes, what its following lanes are labelled with, and the class of its lanes. */
export interface LaneArm {
  readonly name: string;
  readonly className: string;
  readonly lanes: readonly ComputeLane[];
}

/** The lanes in chart order with their labels and classes, and how many lanes each compute has. */
export interface PairedLanes {
  readonly lanes: readonly ComputeLane[];
  readonly labels: readonly string[];
  readonly classes: readonly string[];
  /** Per compute, in order: the number of its lanes (one per arm that has it). */
  readonly groups: readonly number[];
}

/**
 * Pairs the arms' lanes: computes in the order the first arm made them, then any only later arms
 * have. A compute's first lane is labelled with its id (and the arm's name, when the first arm
 * has no such compute), the others `↳ <arm>`.
 */
export function pairedLanes(arms: readonly LaneArm[]): PairedLanes {
  const byId = arms.map((arm) => new Map(arm.lanes.map((lane) => [lane.endpointId, lane])));
  const ids = [...new Set(arms.flatMap((arm) => arm.lanes.map((lane) => lane.endpointId)))];
  const out = { lanes: [] as ComputeLane[], labels: [] as string[], classes: [] as string[] };
  const groups: number[] = [];
  for (const id of ids) {
    let count = 0;
    arms.forEach((arm, a) => {
      const lane = byId[a]?.get(id);
      if (lane === undefined) return;
      const readOnly = lane.type === 'read_only' ? ' (ro)' : '';
      out.lanes.push(lane);
      out.labels.push(
        count > 0 ? `↳ ${arm.name}` : a === 0 ? `${id}${readOnly}` : `${id} (${arm.name})`,
      );
      out.classes.push(arm.className);
      count++;
    });
    groups.push(count);
  }
  return { ...out, groups };
}

/** How many of the first lanes to draw to show whole computes within `max` lanes (at least one). */
export function wholeGroups(
  groups: readonly number[],
  max: number,
): { lanes: number; computes: number } {
  let lanes = 0;
  let computes = 0;
  for (const size of groups) {
    if (computes > 0 && lanes + size > max) break;
    lanes += size;
    computes++;
  }
  return { lanes, computes };
}
