/**
 * Fleet benchmark: 1,000 projects, one primary compute each (autoscaling 0.25-2 CU, default suspend
 * timeout), office-hours Poisson traffic (6 sessions/h 08-18 on weekdays, 0.5/h otherwise, sessions
 * ~2 min), a cron job every 15 min on one project in ten, for 30 simulated days with the full event
 * log kept. Prints events, events/s and its ratio to the engine floor measured in the same run,
 * simulated seconds per wall second, wall time and peak RSS, against the targets (≥ 1,000,000
 * events/s and ≥ 0.2 of the floor; peak RSS ≤ 1 GB).
 *
 * Run: npm run bench -- fleet-30d   (FLEET_PROJECTS / FLEET_DAYS shrink it for a quick look)
 */
import { Simulation, metricsOf, officeHours } from '../src/index.js';
import { floorRun } from './support/floor.js';
import { measure, rate } from './support/measure.js';

const PROJECTS = Number(process.env['FLEET_PROJECTS'] ?? 1_000);
const DAYS = Number(process.env['FLEET_DAYS'] ?? 30);
const TARGET_EVENTS_PER_SECOND = 1_000_000;
const TARGET_FLOOR_RATIO = 0.2;
const TARGET_RSS_BYTES = 1024 ** 3;

/** Builds the fleet: projects, computes and their workloads (not timed). */
function buildFleet(): Simulation {
  const sim = new Simulation({ seed: 42, start: '2026-01-05T00:00:00Z' });
  const rates = officeHours({ peak: 6, offPeak: 0.5 });
  for (let i = 0; i < PROJECTS; i++) {
    const created = sim.request('POST', '/projects', {
      project: {
        default_endpoint_settings: { autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 2 },
      },
    });
    const endpointId: string = created.body.endpoints[0].id;
    sim.addWorkload({
      kind: 'poisson',
      endpointId,
      rates,
      session: {
        duration: { dist: 'exponential', mean: '2m' },
        cpu: { dist: 'uniform', min: 0.05, max: 0.6 },
      },
    });
    if (i % 10 === 0)
      sim.addWorkload({
        kind: 'cron',
        endpointId,
        every: '15m',
        session: { duration: '30s', cpu: 0.3 },
      });
  }
  return sim;
}

/** Runs the fleet benchmark; returns whether every target was met. */
export function runFleetBenchmark(): boolean {
  const floor = measure('floor', floorRun);
  const sim = buildFleet();
  const before = sim.log.length;
  const started = process.hrtime.bigint();
  for (let day = 0; day < DAYS; day++) sim.advance('1d', { stepLimit: Number.MAX_SAFE_INTEGER });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const events = sim.log.length - before;
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const perSecond = events / seconds;
  const ratio = perSecond / floor.eventsPerSecond;
  const { fleet } = metricsOf(sim.log);

  const verdict = (met: boolean) => (met ? 'met' : 'MISSED');
  const rateMet = perSecond >= TARGET_EVENTS_PER_SECOND && ratio >= TARGET_FLOOR_RATIO;
  const rssMet = peakRss <= TARGET_RSS_BYTES;
  console.log(`\nFleet: ${PROJECTS} projects, ${DAYS} simulated days, full log kept`);
  console.log(`floor (typed-array heap on (due, seq)) ${rate(floor.eventsPerSecond)}`);
  console.log(`events processed                      ${events.toLocaleString('en-US')}`);
  console.log(
    `events/s                              ${rate(perSecond)} = ${ratio.toFixed(3)} of the floor` +
      `  (target ≥ ${rate(TARGET_EVENTS_PER_SECOND)} and ≥ ${TARGET_FLOOR_RATIO}: ${verdict(rateMet)})`,
  );
  console.log(
    `simulated seconds per wall second     ${Math.round((DAYS * 86_400) / seconds).toLocaleString('en-US')}`,
  );
  console.log(`wall time                             ${seconds.toFixed(1)} s`);
  console.log(
    `peak RSS                              ${(peakRss / 1024 ** 2).toFixed(0)} MB` +
      `  (target ≤ 1024 MB: ${verdict(rssMet)})`,
  );
  console.log(
    `log                                   ${(sim.log.footprint.bytes / 1024 ** 2).toFixed(0)} MB, ` +
      `${(sim.log.footprint.bytes / sim.log.length).toFixed(1)} bytes/event`,
  );
  console.log(
    `fleet                                 ${fleet.sessions.toLocaleString('en-US')} sessions, ` +
      `${fleet.cuHours.toFixed(0)} CU-hours, ${fleet.starts.toLocaleString('en-US')} starts, ` +
      `${fleet.coldStarts.toLocaleString('en-US')} cold starts (p95 wait ${fleet.coldStartWaitMs.p95} ms)`,
  );
  return rateMet && rssMet;
}

if (import.meta.url === `file://${process.argv[1]}`) runFleetBenchmark();
