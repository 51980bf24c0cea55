/**
 * The points of a sweep: every combination of a grid's values (the last parameter varying fastest),
 * each named after its values so tables and files can say which is which.
 */
import type { Params, ParamValue } from './study.js';

/** One combination of parameter values. */
export interface GridPoint {
  /** `name=value` pairs in grid order, e.g. `suspendTimeout=60 minCu=0.25`. */
  readonly name: string;
  /** Only the grid's parameters, in grid order. */
  readonly values: Params;
}

/** Every combination of `grid`'s values, in a fixed order (the last parameter varying fastest). */
export function gridPoints(grid: Readonly<Record<string, readonly ParamValue[]>>): GridPoint[] {
  let points: [string, ParamValue][][] = [[]];
  for (const [name, values] of Object.entries(grid))
    points = points.flatMap((point) =>
      values.map((value): [string, ParamValue][] => [...point, [name, value]]),
    );
  return points.map((pairs) => ({
    name: pairs.map(([name, value]) => `${name}=${String(value)}`).join(' '),
    values: Object.fromEntries(pairs),
  }));
}
