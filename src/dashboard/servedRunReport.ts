/**
 * The run so far of a served simulation as the same self-contained HTML report `computesim run
 * --html` writes, made in one go: the report builder fed the whole log at once (what `serve` does
 * in slices, `slicedReport.ts`, when the log keeps its events).
 */
import type { Simulation } from '../simulation/simulation.js';
import { RunReportBuilder, type PlacedRequest, type ReportScope } from './runReportBuilder.js';

/** What a report of `sim` asked for now covers: its log and clock as they are, and `requests`. */
export function reportScopeOf(sim: Simulation, requests: readonly PlacedRequest[]): ReportScope {
  return {
    seed: sim.seed,
    start: sim.log.get(0)?.at ?? sim.now(),
    end: sim.now(),
    events: sim.log.length,
    requests: [...requests],
  };
}

/** The HTML report of `sim` from its first event to now, with `requests` in its timeline. */
export function servedRunReport(sim: Simulation, requests: readonly PlacedRequest[]): string {
  const builder = new RunReportBuilder(reportScopeOf(sim, requests));
  for (const event of sim.log) builder.apply(event);
  return builder.render();
}
