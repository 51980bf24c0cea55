/**
 * `computesim run <scenario>`: plays a scenario file, prints its timeline (coloured on a terminal)
 * and a summary of the metrics; or all of it as JSON. Saves the event log on request. A failed
 * expectation is a non-zero exit with one line on stderr saying when and what.
 */
import { formatInstant } from '../../core/instant.js';
import { fileUrl, loadDefinition } from '../../definitions/loadDefinition.js';
import { htmlReport } from '../../report/html/htmlReport.js';
import { metricsOf } from '../../projection/metrics.js';
import { runFooter, runHeader } from '../../report/runText.js';
import { relativeClock } from '../../projection/timelineLine.js';
import { timelineText } from '../../report/timelineText.js';
import { runScenario, type RunInfo, type ScenarioRun } from '../../scenario/runScenario.js';
import type { TimelineEntry } from '../../scenario/timelineEntry.js';
import { SCENARIO_FILE } from '../../scenario/scenario.js';
import { parseCommand, wholeNumber } from '../args.js';
import type { CliIo } from '../io.js';
import { progressBar } from '../progressBar.js';

/** Help of the run command. */
const RUN_HELP = `Usage: computesim run <scenario.ts> [options]

Plays a scenario file (a module that default-exports defineScenario({...})): prints its timeline,
virtual time first, then whether its expectations held and a summary of the metrics.

Options:
  --seed N       seed of the run (default: the scenario's)
  --json         print the run as JSON instead (timeline, verdict, metrics)
  --log FILE     save the event log as JSON Lines (computesim replay FILE narrates it again)
  --report FILE  save an HTML report: a lane per compute, CU and activity over time, operations,
                 metrics and the timeline, in one self-contained file
  --quiet        print only the verdict and the summary, not the timeline
  --no-color     no colours, even on a terminal (NO_COLOR works too)

Example:
  computesim run scenarios/quickstart.ts --seed 7 --log quickstart.jsonl --report quickstart.html`;

/** Runs the run command. */
export async function runCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals, help } = parseCommand(
    argv,
    {
      seed: { type: 'string' },
      json: { type: 'boolean' },
      log: { type: 'string' },
      report: { type: 'string' },
      quiet: { type: 'boolean' },
      'no-color': { type: 'boolean' },
    },
    1,
    'a scenario file (computesim run <scenario.ts>)',
  );
  if (help) {
    io.out(RUN_HELP);
    return 0;
  }
  const seed = values.seed === undefined ? undefined : wholeNumber('--seed', values.seed);
  const scenario = await loadDefinition(fileUrl(positionals[0] as string), SCENARIO_FILE);
  const color = io.color === true && values['no-color'] !== true && values.json !== true;
  const stream = values.json !== true && values.quiet !== true;
  let start = 0;
  // A bar only where it cannot tangle with the timeline: the timeline not streamed to a terminal.
  const progress = progressBar(
    'run',
    stream && io.stdoutTerminal === true ? undefined : io.progressStream,
  );
  const run = runScenario(scenario, {
    onProgress: (done, total) => progress.update(done, total),
    ...(seed === undefined ? {} : { seed }),
    ...(stream
      ? {
          onStart: (info: RunInfo) => {
            start = info.start;
            for (const line of runHeader(info).split('\n')) io.out(line);
          },
          onEntry: (entry: TimelineEntry) => io.out(timelineText(entry, start, color)),
        }
      : {}),
  });
  progress.stop();
  if (values.json === true) io.out(JSON.stringify(runJson(run), null, 2));
  else {
    if (values.quiet === true) for (const line of runHeader(run).split('\n')) io.out(line);
    for (const line of runFooter(run)) io.out(line);
  }
  // After the verdict, so a file that cannot be written never hides how the run went.
  const saved = [
    values.log === undefined
      ? undefined
      : () => io.writeFile(values.log as string, run.sim.log.jsonLines()),
    values.report === undefined
      ? undefined
      : () => io.writeFile(values.report as string, htmlReport(run)),
  ];
  for (const save of saved) save?.();
  if (run.failure === undefined) return 0;
  io.err(
    `computesim: scenario ${run.name} failed at ${relativeClock(run.failure.at - run.start)}: ${run.failure.message}`,
  );
  return 1;
}

function runJson(run: ScenarioRun) {
  return {
    scenario: run.name,
    ...(run.description === undefined ? {} : { description: run.description }),
    seed: run.seed,
    start: formatInstant(run.start),
    end: formatInstant(run.end),
    passed: run.passed,
    ...(run.failure === undefined
      ? {}
      : { failure: { at: formatInstant(run.failure.at), message: run.failure.message } }),
    checks: run.checks,
    events: run.sim.log.length,
    timeline: run.timeline.map((entry) => ({
      at: formatInstant(entry.at),
      offsetMs: entry.at - run.start,
      kind: entry.kind,
      text: entry.text,
      ...(entry.status === undefined ? {} : { status: entry.status }),
    })),
    metrics: metricsOf(run.sim.log).fleet,
  };
}
