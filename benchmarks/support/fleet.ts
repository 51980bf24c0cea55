/**
 * The benchmark fleet: the projects of `scenarios/office-fleet.ts` (one compute each, autoscaling
 * 0.25-2 CU, default suspend timeout, office-hours Poisson traffic of 6 sessions/h 08-18 on
 * weekdays and 0.5/h otherwise, ~2 min sessions, a cron job every 15 min on one project in ten),
 * all in one simulation. The SimPy peer (`../shared/peers/simpy-fleet.py`) models the same fleet.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Simulation, type ProfileOverrides } from '../../src/index.js';
import { type LogKeeping } from '../../src/entries/model.js';
import officeFleet from '../../scenarios/office-fleet.js';

/**
 * Builds the fleet of `projects` computes on a new simulation (not timed); `onCreated` sees the
 * simulation before its first event (to follow it with a projection).
 */
export function buildFleet(
  projects: number,
  log: LogKeeping = 'memory',
  onCreated?: (sim: Simulation) => void,
  profile: ProfileOverrides = {},
): Simulation {
  const sim = new Simulation({ seed: 42, start: '2026-01-05T00:00:00Z', log, profile });
  onCreated?.(sim);
  for (let i = 0; i < projects; i++) officeFleet.project(sim, i);
  return sim;
}

/** Runs `days` of the fleet a day at a time; returns the events and the wall seconds it took. */
export function runFleet(sim: Simulation, days: number): { events: number; seconds: number } {
  const before = sim.log.length;
  const started = process.hrtime.bigint();
  for (let day = 0; day < days; day++) sim.advance('1d', { stepLimit: Number.MAX_SAFE_INTEGER });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { events: sim.log.length - before, seconds };
}

/** What the SimPy model of the same fleet printed. */
export interface PeerRun {
  readonly seconds: number;
  readonly starts: number;
  readonly cuHours: number;
}

const PEER = join(dirname(fileURLToPath(import.meta.url)), '../../../shared/peers/simpy-fleet.py');

/**
 * Runs the SimPy model of the same fleet (when `python3` and the peer are there), in a child
 * process after ours so the two never share the CPU; `undefined` with the reason printed otherwise.
 */
export function runPeer(projects: number, days: number): PeerRun | undefined {
  if (!existsSync(PEER)) {
    console.log(`(SimPy peer not found at ${PEER}: no comparison)`);
    return undefined;
  }
  const run = spawnSync('python3', [PEER, String(projects), String(days)], { encoding: 'utf8' });
  if (run.error !== undefined || run.status !== 0) {
    console.log(`(SimPy peer did not run: ${run.error?.message ?? run.stderr.trim()})`);
    return undefined;
  }
  const wall = /wall ([\d.]+) s/.exec(run.stdout);
  const starts = /starts ([\d,]+)/.exec(run.stdout);
  const cuHours = /CU-hours ([\d,]+)/.exec(run.stdout);
  if (wall === null || starts === null || cuHours === null) {
    console.log(`(SimPy peer printed something unexpected: ${run.stdout.trim()})`);
    return undefined;
  }
  const number = (text: string) => Number(text.replaceAll(',', ''));
  return {
    seconds: Number(wall[1]),
    starts: number(starts[1] as string),
    cuHours: number(cuHours[1] as string),
  };
}
