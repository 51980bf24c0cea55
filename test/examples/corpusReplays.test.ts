/**
 * Counterexamples replay as printed (issue 47): for each bug client of the corpus, the recipe's
 * property (`clientProperty`, run with `assert`) fails, and the test its failure prints is pasted,
 * as printed, into a file beside a property of that name and run by vitest in a child process: it
 * fails with the same verdict. And the shrunk world keeps no fault part that never fired: without
 * any one of them the run passes.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { CounterexampleError, type Timeline } from '../../src/testing/index.js';
import { faultParts, withoutFaultPart } from '../../src/testing/timeline/pruneFaults.js';
import { BUG_CLIENTS } from './corpus/index.js';
import { CORPUS_SEED, corpusProperty, type Preset } from './corpus/recipe.js';

const RUNS = 100;
const DIR = resolve('test-output/replays');

/** The failure a bug client's property printed, and under which preset. */
interface Printed {
  readonly preset: Preset;
  readonly error: CounterexampleError;
}

/** Runs the property as the guide does (`assert`); its failure, first property then second. */
async function printedFailure(name: string): Promise<Printed> {
  for (const preset of ['honest', 'harsh'] as const) {
    try {
      await corpusProperty(name, preset).assert({ numRuns: RUNS, seed: CORPUS_SEED });
    } catch (error) {
      if (error instanceof CounterexampleError) return { preset, error };
      throw error;
    }
  }
  throw new Error(`${name}: no run of either property failed`);
}

/** The test a failure's message prints: everything after its "Replay it" line. */
function pastedTest(message: string): string {
  const lines = message.split('\n');
  const at = lines.findIndex((line) => line.startsWith('Replay it: paste this test beside'));
  expect(at, message).toBeGreaterThan(0);
  return lines
    .slice(at + 1)
    .join('\n')
    .trim();
}

const printed = new Map<string, Printed>();
let results: Map<string, { status: string; message: string }>;

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  writeFileSync(
    join(DIR, 'vitest.config.ts'),
    `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { include: ['*.test.ts'] } });\n`,
  );
  for (const entry of BUG_CLIENTS) {
    const failure = await printedFailure(entry.name);
    printed.set(entry.name, failure);
    const file = [
      `import { it } from 'vitest';`,
      `import { corpusProperty } from '../../test/examples/corpus/recipe.js';`,
      ``,
      `const ${entry.name} = corpusProperty('${entry.name}', '${failure.preset}');`,
      ``,
      pastedTest(failure.error.message),
      ``,
    ].join('\n');
    writeFileSync(join(DIR, `${entry.name}.test.ts`), file);
  }
  const report = join(DIR, 'report.json');
  // The files fail on purpose: vitest exits 1, and its report says how each failed.
  await promisify(execFile)(
    process.execPath,
    [resolve('node_modules/vitest/vitest.mjs'), 'run', '--reporter=json', `--outputFile=${report}`],
    { cwd: DIR },
  ).catch(() => undefined);
  const json = JSON.parse(readFileSync(report, 'utf8')) as {
    testResults: {
      name: string;
      assertionResults: { status: string; failureMessages: string[] }[];
    }[];
  };
  results = new Map(
    json.testResults.map((file) => [
      file.name.split('/').pop()!.replace('.test.ts', ''),
      {
        status: file.assertionResults[0]?.status ?? 'none',
        message: file.assertionResults[0]?.failureMessages[0] ?? '',
      },
    ]),
  );
}, 300_000);

describe('each bug client: the printed counterexample, run as printed, fails the same way', () => {
  for (const entry of BUG_CLIENTS)
    it(`${entry.name}`, () => {
      const failure = printed.get(entry.name)!;
      const result = results.get(entry.name);
      expect(result?.status, result?.message).toBe('failed');
      const labels = failure.error.verdict.labels.join(', ');
      expect(result?.message.split('\n')[0]).toBe(
        `ClientPropertyError: ${entry.name} failed: ${labels}`,
      );
      expect(labels).toContain(entry.judgedBy ?? failure.error.verdict.labels[0]);
    });
});

describe('each bug client: the shrunk world keeps only fault parts that fired', () => {
  for (const entry of BUG_CLIENTS)
    it(`${entry.name}`, async () => {
      const { preset, error } = printed.get(entry.name)!;
      const world: Timeline = error.world;
      for (const part of faultParts(world.faults)) {
        const lighter = { ...world, faults: withoutFaultPart(world.faults, part) };
        const verdict = await corpusProperty(entry.name, preset).judge(lighter);
        expect(verdict.labels, `${part.join('.')} can go`).toEqual([]);
      }
    });
});
