/**
 * Fleet benchmark: 1,000 projects of the benchmark fleet (support/fleet.ts) for 30 simulated days
 * with the full event log kept in memory. Prints events, events/s and its ratio to the engine floor
 * measured in the same run, wall time beside the SimPy model of the same fleet run in the same
 * benchmark, and peak RSS, against the targets (≥ 3× faster than SimPy; peak RSS ≤ 1 GB). The fleet
 * is built and run through the public contract alone (`new Simulation`, `request`, `addWorkload`,
 * `advance`), so its figure is what a user's own script of the same fleet gets. Then the fleet's own
 * events are played through the engine and its log with no control plane (support/engineCeiling.ts):
 * the least the same month could take on this engine, printed against SimPy too, and what the rest
 * of the run cost an event.
 *
 * Run: npm run bench -- fleet-30d   (FLEET_PROJECTS / FLEET_DAYS shrink it for a quick look)
 */
import { metricsOf } from '../src/index.js';
import { type FleetMetrics } from '../src/entries/studies.js';
import { floorRun } from './support/floor.js';
import { measureEngineCeiling } from './support/engineCeiling.js';
import { buildFleet, runFleet, runPeer } from './support/fleet.js';
import { LIVE_TIMERS } from './support/holdModel.js';
import { measure, rate, wholeFromEnv } from './support/measure.js';
import { recordFigures, rounded, type Figure } from './support/results.js';

const PROJECTS = wholeFromEnv('FLEET_PROJECTS', 1_000);
const DAYS = wholeFromEnv('FLEET_DAYS', 30);
const TARGET_PEER_SPEEDUP = 3;
const TARGET_RSS_BYTES = 1024 ** 3;
/** Events the ceiling plays per sample (fewer for a fleet run shorter than that). */
const CEILING_EVENTS = 4_000_000;

/** The fleet's month through the public contract: what the benchmark keeps of it once it is over. */
function runMonth(): {
  readonly events: number;
  readonly seconds: number;
  readonly peakRss: number;
  readonly fleet: FleetMetrics;
  readonly logBytes: number;
} {
  const sim = buildFleet(PROJECTS);
  const { events, seconds } = runFleet(sim, DAYS);
  const peakRss = process.resourceUsage().maxRSS * 1024;
  return {
    events,
    seconds,
    peakRss,
    fleet: metricsOf(sim.log).fleet,
    logBytes: sim.log.footprint.bytes,
  };
}

/** Runs the fleet benchmark; returns whether every target was met. */
export function runFleetBenchmark(): boolean {
  const floor = measure('floor', floorRun);
  const { events, seconds, peakRss, fleet, logBytes } = runMonth();
  const perSecond = events / seconds;
  const ratio = perSecond / floor.eventsPerSecond;
  const peer = runPeer(PROJECTS, DAYS);
  const ceiling = measureEngineCeiling(
    () => buildFleet(PROJECTS, 'none'),
    Math.min(CEILING_EVENTS, Math.max(events, LIVE_TIMERS)),
  );

  const verdict = (met: boolean) => (met ? 'met' : 'MISSED');
  const rssMet = peakRss <= TARGET_RSS_BYTES;
  const speedup = peer === undefined ? undefined : peer.seconds / seconds;
  const peerMet = speedup === undefined || speedup >= TARGET_PEER_SPEEDUP;
  console.log(`\nFleet: ${PROJECTS} projects, ${DAYS} simulated days, full log kept`);
  console.log(`floor (typed-array heap on (due, seq)) ${rate(floor.eventsPerSecond)}`);
  console.log(`events processed                      ${events.toLocaleString('en-US')}`);
  console.log(
    `events/s                              ${rate(perSecond)} = ${ratio.toFixed(3)} of the floor`,
  );
  console.log(
    `simulated seconds per wall second     ${Math.round((DAYS * 86_400) / seconds).toLocaleString('en-US')}`,
  );
  console.log(`wall time                             ${seconds.toFixed(1)} s`);
  if (peer !== undefined)
    console.log(
      `SimPy model of the same fleet         ${peer.seconds.toFixed(1)} s wall: computesim ` +
        `${(speedup as number).toFixed(2)}× faster  (target ≥ ${TARGET_PEER_SPEEDUP}×: ${verdict(peerMet)}); ` +
        `SimPy ${peer.starts.toLocaleString('en-US')} starts, ${peer.cuHours.toLocaleString('en-US')} CU-hours`,
    );
  const microsPerEvent = (seconds * 1e6) / events;
  const leastSeconds = (ceiling.microsPerEvent * events) / 1e6;
  console.log(
    `engine + log alone, the fleet's events ${ceiling.microsPerEvent.toFixed(2)} µs an event ` +
      `(${ceiling.microsPerEventNoLog.toFixed(2)} with no log kept): these ${events.toLocaleString('en-US')} events ` +
      `take at least ${leastSeconds.toFixed(leastSeconds < 10 ? 2 : 1)} s on this engine, whatever the control plane` +
      (peer === undefined ? '' : ` (${(peer.seconds / leastSeconds).toFixed(2)}× SimPy at most)`),
  );
  const left =
    peer === undefined
      ? undefined
      : (peer.seconds * 1e6) / TARGET_PEER_SPEEDUP / events - ceiling.microsPerEvent;
  const budget =
    left === undefined
      ? ''
      : `; ${TARGET_PEER_SPEEDUP}× SimPy leaves it ${left > 0 ? `${left.toFixed(2)} µs an event` : 'nothing'}`;
  console.log(
    `the rest of the run (control plane)   ${(microsPerEvent - ceiling.microsPerEvent).toFixed(2)} µs an event ` +
      `(the run's ${microsPerEvent.toFixed(2)} less the engine's)${budget}`,
  );
  console.log(
    `peak RSS                              ${(peakRss / 1024 ** 2).toFixed(0)} MB` +
      `  (target ≤ 1024 MB: ${verdict(rssMet)})`,
  );
  console.log(
    `log                                   ${(logBytes / 1024 ** 2).toFixed(0)} MB, ` +
      `${(logBytes / events).toFixed(1)} bytes/event`,
  );
  console.log(
    `fleet                                 ${fleet.sessions.toLocaleString('en-US')} sessions, ` +
      `${fleet.cuHours.toFixed(0)} CU-hours, ${fleet.starts.toLocaleString('en-US')} starts, ` +
      `${fleet.coldStarts.toLocaleString('en-US')} cold starts (p95 wait ${fleet.coldStartWaitMs.p95} ms)`,
  );
  const simpy = peer === undefined ? undefined : { name: 'SimPy', value: peer.seconds, unit: 's' };
  const figures: Figure[] = [
    {
      figure: 'wall time',
      value: rounded(seconds, 1),
      unit: 's',
      ...(simpy === undefined ? {} : { peer: simpy }),
    },
    ...(speedup === undefined
      ? []
      : [
          {
            figure: 'speed / SimPy',
            value: rounded(speedup, 2),
            unit: '×',
            target: `≥ ${TARGET_PEER_SPEEDUP}×`,
            met: peerMet,
          },
        ]),
    { figure: 'µs an event', value: rounded(microsPerEvent, 2), unit: 'µs' },
    { figure: 'engine + log alone', value: rounded(ceiling.microsPerEvent, 2), unit: 'µs' },
    {
      figure: 'peak RSS',
      value: Math.round(peakRss / 1024 ** 2),
      unit: 'MB',
      target: '≤ 1024 MB',
      met: rssMet,
    },
  ];
  recordFigures('fleet-30d', `${PROJECTS} computes × ${DAYS} days`, figures);
  return rssMet && peerMet;
}

if (import.meta.url === `file://${process.argv[1]}`) runFleetBenchmark();
