/**
 * The compare report of a short study, made in this thread as the CLI makes it (every run, the
 * paired figures, and the first seed of each configuration played again with its log), for the
 * report's tests and its browser test.
 */
import { compareArm, compareReport } from '../../src/report/html/compareReport.js';
import { pairedComparison } from '../../src/study/pairedComparison.js';
import { playStudy } from '../../src/study/runStudy.js';
import type { StudyDefinition } from '../../src/study/study.js';
import { sweep } from '../../src/study/sweep.js';

/** The compare report of `study`'s configurations over `seeds`, each run lasting `duration`. */
export function compareReportOf<P>(
  study: StudyDefinition<P>,
  seeds: readonly number[],
  duration: string,
): string {
  const short = { ...study, duration };
  const paired = pairedComparison(sweep(short, { grid: {}, seeds }));
  let from = 0;
  let until = 0;
  const arms = short.configurations.map((configuration) => {
    const sim = playStudy(short, configuration, seeds[0]!);
    until = sim.now();
    from = sim.log.get(0)!.at;
    return compareArm(configuration.name, sim.log, from, until);
  });
  return compareReport({
    study: study.name,
    description: study.description,
    duration,
    paired,
    arms,
    from,
    until,
  });
}
