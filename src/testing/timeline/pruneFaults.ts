/**
 * After fast-check has shrunk a failing world, each fault part still in it is tried away: a part
 * that never fired (or no longer matters once the rest shrank) goes, so that the printed
 * counterexample names only the faults the failure needs. fast-check's own shrinking does not do
 * it: once it has shrunk inside a part it does not offer that part's removal again.
 */
import type { FaultProfile } from '../faultProfile.js';
import type { Timeline } from './timeline.js';

/** A fault part's path: `['operations', 'start_compute']`, `['requests', 'locked']`, `['connections']`. */
export type FaultPartPath = readonly [kind: string, part?: string];

/** The fault parts of a profile, each by its path. Settings that are not faults (`maxInARow`) are not parts. */
export function faultParts(faults: FaultProfile): FaultPartPath[] {
  const parts: FaultPartPath[] = [];
  for (const [kind, value] of Object.entries(faults)) {
    if (kind === 'connections') parts.push([kind]);
    else
      for (const [part, spec] of Object.entries(value as Record<string, unknown>))
        if (typeof spec === 'object' && spec !== null) parts.push([kind, part]);
  }
  return parts;
}

/** The profile without one part; a kind left with no part goes too (its settings with it). */
export function withoutFaultPart(faults: FaultProfile, [kind, part]: FaultPartPath): FaultProfile {
  const { [kind]: ofKind, ...rest } = faults as Record<string, Record<string, unknown> | undefined>;
  if (part === undefined || ofKind === undefined) return rest;
  const { [part]: _gone, ...others } = ofKind;
  const anyPartLeft = Object.values(others).some((v) => typeof v === 'object' && v !== null);
  return anyPartLeft ? { ...rest, [kind]: others } : rest;
}

/**
 * `world` with every fault part removed whose removal keeps it failing (`fails` says), trying each
 * part in turn until none can go.
 */
export async function pruneFaults(
  world: Timeline,
  fails: (world: Timeline) => Promise<boolean>,
): Promise<Timeline> {
  let current = world;
  for (let removed = true; removed;) {
    removed = false;
    for (const part of faultParts(current.faults)) {
      const lighter = { ...current, faults: withoutFaultPart(current.faults, part) };
      if (await fails(lighter)) {
        current = lighter;
        removed = true;
        break;
      }
    }
  }
  return current;
}
