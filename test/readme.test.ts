import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it, vi } from 'vitest';
import { LogFile, LogFileSink, Simulation, metricsOf, officeHours } from '../src/index.js';
import { MetricsProjection } from '../src/entries/studies.js';
import { runText } from '../src/report/runText.js';
import { quickstartScenario } from '../src/scenario/quickstart.js';
import { runScenario } from '../src/scenario/runScenario.js';
import resizeRestart from '../scenarios/resize-restart.js';
import busyDayFork from '../scenarios/busy-day-fork.js';
import { compareFork, forkTable } from '../src/entries/studies.js';
import { fetchHandler, SimServer } from '../src/entries/serve.js';
import { runCli } from './support/runCli.js';
import { documentation, importingSources } from './support/documentation.js';

// The README and the pages its reference moved to (docs/simulation.md, capacity.md, …).
const readme = documentation();
const example = /<!-- example:start -->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
const workloadExample =
  /<!-- workload-example:start -->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
const forkExample = /<!-- fork-example:start -->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
const forkTableShown = /<!-- fork-table:start -->\s*```text\n([\s\S]*?)```/.exec(readme)?.[1];
const fetchExample = /<!-- fetch-example:start -->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
const logExample = /<!-- log-example:start -->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
const serveExample =
  /<!-- serve-library-example:start -->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';

/** The README's examples that must typecheck, by name, with the file name each is checked as. */
const typedExamples = {
  fork: { code: forkExample, file: 'fork.ts' },
  short: { code: example, file: 'short.ts' },
  workload: { code: workloadExample, file: 'workload.ts' },
  fetch: { code: fetchExample, file: 'fetch.mts' },
  log: { code: logExample, file: 'log.mts' },
  serve: { code: serveExample, file: 'serve.mts' },
} as const;

let diagnosticsByExample: Map<string, string[]> | undefined;

/**
 * TypeScript's complaints about one README example under the strict settings users have (none is
 * good). Every example is checked in one program, built once: a program costs seconds to build.
 */
function strictDiagnostics(name: keyof typeof typedExamples): string[] {
  if (diagnosticsByExample === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'computesim-readme-'));
    const files = new Map<string, string>();
    for (const [example, { code, file }] of Object.entries(typedExamples)) {
      const path = join(dir, file);
      writeFileSync(path, importingSources(code));
      files.set(path, example);
    }
    const program = ts.createProgram([...files.keys()], {
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: ['node'],
      skipLibCheck: true,
      noEmit: true,
    });
    diagnosticsByExample = new Map([...files.values()].map((example) => [example, []]));
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const example = files.get(diagnostic.file?.fileName ?? '');
      diagnosticsByExample
        .get(example ?? '')
        ?.push(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    }
  }
  return diagnosticsByExample.get(name) ?? [`no example named ${name}`];
}

describe('README', () => {
  it('has a fork example that typechecks and prints the change and both futures', () => {
    expect(strictDiagnostics('fork')).toEqual([]);
    const js = ts.transpileModule(forkExample.replace(/^import .*$/gm, ''), {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    }).outputText;
    const lines: unknown[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
      lines.push(line);
    });
    try {
      new Function('Simulation', 'compareFork', 'forkTable', js)(
        Simulation,
        compareFork,
        forkTable,
      );
    } finally {
      log.mockRestore();
    }
    expect(lines[0]).toBe('SettingsChanged');
    expect(lines[1]).toMatch(
      /^from the fork at 2026-01-06T12:00:00Z[\s\S]*CU-hours\s+[\d.]+\s+[\d.]+ \(−/,
    );
  }, 60_000);

  it('shows what replay --fork-at prints for the busy day forked at noon', async () => {
    const run = runScenario(busyDayFork);
    expect(run.failure).toBeUndefined();
    const file = join(mkdtempSync(join(tmpdir(), 'computesim-readme-')), 'busy-day.jsonl');
    writeFileSync(file, run.sim.toJSONL());
    const { code, out } = await runCli([
      'replay',
      file,
      '--fork-at',
      '2026-01-06T12:00Z',
      '--set',
      'suspendTimeout=60',
    ]);
    expect(code).toBe(0);
    expect(`${out.join('\n').replace(file, 'busy-day.jsonl')}\n`).toBe(forkTableShown);
  }, 60_000);

  it('has a short example that typechecks under the strict settings users have', () => {
    expect(example.split('\n').length).toBeLessThanOrEqual(26);
    expect(strictDiagnostics('short')).toEqual([]);
  }, 60_000);

  it('has a workload example that typechecks and prints capacity figures', async () => {
    expect(strictDiagnostics('workload')).toEqual([]);
    const lines = await runExample(workloadExample, { metricsOf, officeHours });
    expect(lines).toHaveLength(1);
    const [cuHours, starts, coldStarts, p95] = (lines[0] as string).split(' ').map(Number);
    expect(cuHours).toBeGreaterThan(10);
    expect(starts).toBeGreaterThan(20);
    expect(coldStarts).toBeGreaterThan(0);
    expect(p95).toBeGreaterThanOrEqual(200);
  }, 60_000);

  it('has an example that runs and prints what its comments say', async () => {
    const lines = await runExample(example);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^201 [a-z]+-[a-z]+-\d{6} init$/);
    expect(lines.slice(1)).toEqual(['active', 'idle', 'true']);
  });

  it('has a fetchHandler example that typechecks and prints what its comment says', async () => {
    expect(strictDiagnostics('fetch')).toEqual([]);
    expect(await runExample(fetchExample, { fetchHandler })).toEqual(['201 demo']);
  }, 60_000);

  it('has a streamed-log example that typechecks and prints what its comment says', async () => {
    expect(strictDiagnostics('log')).toEqual([]);
    const imports = { LogFile, LogFileSink, MetricsProjection, metricsOf };
    expect(await runExample(logExample, imports)).toEqual(['true true']);
  }, 60_000);

  it('shows the quickstart output exactly as it prints', () => {
    const shown = /What `npm start` prints[^\n]*\s*```text\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(shown).toBe(`${runText(runScenario(quickstartScenario)).join('\n')}\n`);
  });

  it('has an example of serve as a library that typechecks and answers over a socket', async () => {
    expect(strictDiagnostics('serve')).toEqual([]);
    expect(await runExample(serveExample, { SimServer })).toEqual(['201 demo']);
  }, 60_000);
});

describe('README worked example', () => {
  it('shows what running scenarios/resize-restart.ts prints', () => {
    const shown = /<!-- worked-example:start -->\s*```text\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(shown).toBe(`${runText(runScenario(resizeRestart)).join('\n')}\n`);
  });
});

/** Runs a README example (its import line dropped, `Simulation` given) and returns what it logged. */
async function runExample(
  code: string,
  imports: Readonly<Record<string, unknown>> = {},
): Promise<string[]> {
  const js = ts.transpileModule(code.replace(/^import .*$/gm, ''), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  }).outputText;
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    lines.push(args.join(' '));
  });
  try {
    const AsyncFunction = (async () => {}).constructor as new (
      ...args: string[]
    ) => (...values: unknown[]) => Promise<void>;
    const names = ['Simulation', ...Object.keys(imports)];
    await new AsyncFunction(...names, js)(Simulation, ...Object.values(imports));
  } finally {
    log.mockRestore();
  }
  return lines;
}
