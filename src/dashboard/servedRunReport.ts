/**
 * The run so far of a served simulation as the same self-contained HTML report `computesim run
 * --html` writes: its timeline is the narrated log, with the requests the server answered (the
 * latest of them, as many as it keeps) in their places among the events.
 */
import { htmlReport } from '../report/html/htmlReport.js';
import { createNarrator } from '../projection/narrator.js';
import type { Simulation } from '../simulation/simulation.js';
import type { TimelineEntry } from '../scenario/timelineEntry.js';
import type { RequestRecord } from './feedItem.js';

/** A request with where it falls in the log: after the first `position` events. */
export interface PlacedRequest extends RequestRecord {
  readonly position: number;
}

/** The HTML report of `sim` from its first event to now, with `requests` in its timeline. */
export function servedRunReport(sim: Simulation, requests: readonly PlacedRequest[]): string {
  const narrate = createNarrator();
  const timeline: TimelineEntry[] = [];
  let next = 0;
  const placeUpTo = (position: number) => {
    for (
      ;
      next < requests.length && (requests[next] as PlacedRequest).position <= position;
      next++
    ) {
      const r = requests[next] as PlacedRequest;
      timeline.push({ at: r.at, kind: 'request', text: `${r.method} ${r.path}` });
      timeline.push({ at: r.at, kind: 'response', text: `→ ${r.status}`, status: r.status });
    }
  };
  for (const event of sim.log) {
    placeUpTo(event.seq);
    const text = narrate(event);
    if (text !== undefined) timeline.push({ at: event.at, kind: 'event', text });
  }
  placeUpTo(Infinity);
  const start = sim.log.get(0)?.at ?? sim.now();
  return htmlReport(
    {
      name: 'computesim serve: the run so far',
      description:
        'What the served simulation did, from its first event to the moment of download.',
      seed: sim.seed,
      start,
      end: sim.now(),
      passed: true,
      checks: 0,
      timeline,
      sim,
    },
    { verdict: false },
  );
}
