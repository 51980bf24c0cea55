/**
 * The testing toolkit's own benchmark of its verdicts (issue 47): the corpus of client bugs
 * (`test/examples/corpus/`), each client run with the documented recipe (a generated timeline with
 * the default faults alongside, the default oracles over its record, the monitors over the log, and
 * whether its job succeeded). A bug client is searched for with `fc.check` from a fixed seed over
 * at most 200 runs, and its counterexample shrunk; a careful client runs 1,000 times. Targets: every
 * bug found within its 200 runs, and no finding nor failed job for a careful client.
 *
 * Run: npm run bench -- toolkit
 */
import { BUG_CLIENTS, CAREFUL_CLIENTS } from '../test/examples/corpus/index.js';
import {
  CORPUS_SEED,
  searchBug,
  tallyCareful,
  type BugSearch,
  type Verdict,
} from '../test/examples/corpus/recipe.js';

/** Runs a bug client may take to be found. */
const BUG_RUNS = 200;
/** Runs of each careful client. */
const CAREFUL_RUNS = 1_000;

/** Who found it: the first failing run's verdicts (and the shrunk run's, when they differ). */
function foundBy(search: BugSearch): string {
  const first = search.first?.labels.join(', ') ?? '-';
  const shrunk = search.shrunk?.verdict.labels.join(', ');
  return shrunk === undefined || shrunk === first ? first : `${first} (shrunk: ${shrunk})`;
}

function firstLines(text: string, lines = 8): string {
  return text
    .split('\n')
    .slice(0, lines)
    .map((line) => `      ${line}`)
    .join('\n');
}

/** Prints the matrix; returns whether every target was met. */
export async function runToolkitBenchmark(): Promise<boolean> {
  console.log(
    `\nThe toolkit's verdicts over the client corpus (test/examples/corpus/): ` +
      `timeline({ maxSteps: 10, faults: faultProfile() }), then, for a bug not found so, ` +
      `faultProfile({ preset: 'harsh' }) (the client must end); fast-check seed ${CORPUS_SEED}`,
  );
  console.log(`\nBug clients: found within ${BUG_RUNS} runs, by what, shrunk to how many steps`);
  console.log(
    `${'class'.padEnd(6)}${'client'.padEnd(26)}${'found'.padEnd(7)}${'runs'.padStart(5)}${'shrunk'.padStart(9)}${'time'.padStart(8)}  by`,
  );
  const misses: string[] = [];
  for (const entry of BUG_CLIENTS) {
    const search = await searchBug(entry, { numRuns: BUG_RUNS, shrink: true });
    const steps = search.shrunk === undefined ? '-' : `${search.shrunk.steps} steps`;
    console.log(
      `${entry.bugClass.padEnd(6)}${entry.name.padEnd(26)}${(search.found ? 'yes' : 'NO').padEnd(7)}` +
        `${String(search.failed ? search.runs : `>${search.runs}`).padStart(5)}${steps.padStart(9)}` +
        `${`${search.seconds.toFixed(1)}s`.padStart(8)}  ${search.found || search.failed ? foundBy(search) : '-'}` +
        (search.found && search.preset === 'harsh'
          ? ' (harsh faults: the client never ended)'
          : ''),
    );
    if (!search.found)
      misses.push(
        `${entry.name} (bug ${entry.bugClass}: ${entry.summary}) not found: ` +
          (search.first === undefined
            ? `no run of ${search.runs} failed (it should be found by ${entry.judgedBy ?? 'an oracle'})`
            : `run ${search.runs} failed for another reason:\n${firstLines(search.first.message)}`),
      );
  }

  console.log(`\nCareful clients: ${CAREFUL_RUNS.toLocaleString('en')} runs each`);
  console.log(
    `${'client'.padEnd(26)}${'findings'.padStart(9)}${'jobs failed'.padStart(13)}${'time'.padStart(8)}  what`,
  );
  for (const entry of CAREFUL_CLIENTS) {
    const tally = await tallyCareful(entry, { numRuns: CAREFUL_RUNS });
    const what = [...tally.byLabel].map(([label, runs]) => `${label} ×${runs}`).join(', ');
    console.log(
      `${entry.name.padEnd(26)}${String(tally.withFindings).padStart(9)}${String(tally.jobsFailed).padStart(13)}` +
        `${`${tally.seconds.toFixed(1)}s`.padStart(8)}  ${what === '' ? '-' : what}`,
    );
    const report = (kind: string, verdict: Verdict | undefined) => {
      if (verdict !== undefined)
        misses.push(
          `${entry.name} (careful: ${entry.summary}): ${kind}\n${firstLines(verdict.message)}`,
        );
    };
    report(`${tally.withFindings} run(s) with findings; the first:`, tally.firstFinding);
    if (tally.jobsFailed > 0) {
      const why = [...tally.failures].map(([error, runs]) => `${runs}× ${error}`).join('; ');
      report(`${tally.jobsFailed} failed job(s) (${why}); the first:`, tally.firstJobFailure);
    }
  }

  const met = misses.length === 0;
  console.log(
    `\ntargets (every bug found within ${BUG_RUNS} runs; careful clients: no finding, no failed job): ${met ? 'met' : 'MISSED'}`,
  );
  for (const miss of misses) console.log(`  - ${miss}`);
  return met;
}

if (import.meta.url === `file://${process.argv[1]}`) await runToolkitBenchmark();
