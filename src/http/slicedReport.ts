/**
 * The report of the run so far, built off the request path: the log's events go to a
 * `RunReportBuilder` in slices of about 15 ms (`runSliced`, as long clock moves run), handing the
 * event loop back in between, so `serve` answers other requests while a report of millions of
 * events is made. The report covers the log and the requests as they were when it was asked for.
 */
import { RunReportBuilder } from '../dashboard/runReportBuilder.js';
import type { PlacedRequest } from '../dashboard/servedRunReport.js';
import { runSliced } from '../service/slicedRun.js';
import type { Simulation } from '../simulation/simulation.js';

/** The HTML report of `sim` from its first event to now, with `requests` in its timeline. */
export async function slicedRunReport(
  sim: Simulation,
  requests: readonly PlacedRequest[],
): Promise<string> {
  const log = sim.log;
  const events = log.length;
  const builder = new RunReportBuilder({
    seed: sim.seed,
    start: log.get(0)?.at ?? sim.now(),
    end: sim.now(),
    events,
    requests: [...requests],
  });
  let fed = 0;
  await runSliced({
    slice: (max) => {
      const to = Math.min(events, fed + max);
      builder.feed(log.slice(fed, to));
      fed = to;
      return fed < events ? 'more' : 'done';
    },
    afterSlice: () => undefined,
  });
  return builder.render();
}
