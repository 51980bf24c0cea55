/**
 * Every example of docs/testing.md that is a whole test file runs as copied, in a fresh project that
 * installs the packed tarball and what the guide tells a user to install beside it, under vitest's
 * default configuration (or the one configuration the guide shows, if it shows one). The blocks are
 * read from the guide as this test runs, so the test follows the page. In the system tier: it runs
 * npm against the registry (or its cache) and vitest in a child process, a minute or more.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  installedVersion,
  packTarball,
  runCommand,
  type CommandRun,
} from '../support/packedPackage.js';

/** What the guide tells a user to install beside computesim, for its examples. */
const GUIDE_PACKAGES = [
  'fast-check',
  'vitest',
  '@neondatabase/api-client', // the complete example calls the official SDK
  'msw', // the serverless driver's chapter
  '@neondatabase/serverless',
  '@electric-sql/pglite',
];

/** A fenced block of the guide: its language, its text, and the heading it is under. */
interface Block {
  readonly lang: string;
  readonly code: string;
  readonly heading: string;
}

/** The fenced blocks of `markdown`, in order, each with the nearest heading above it. */
function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let heading = '';
  let open: { lang: string; lines: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    if (open === undefined) {
      const fence = /^```(\S*)\s*$/.exec(line);
      if (fence !== null) open = { lang: fence[1]!, lines: [] };
      else heading = /^#{1,6} (.+)$/.exec(line)?.[1] ?? heading;
    } else if (/^```\s*$/.test(line)) {
      blocks.push({ lang: open.lang, code: open.lines.map((l) => `${l}\n`).join(''), heading });
      open = undefined;
    } else open.lines.push(line);
  }
  return blocks;
}

/** A block that is a whole test file: it imports from vitest and declares tests at its top level. */
const isTestFile = (block: Block) =>
  block.lang === 'ts' &&
  /\bfrom ['"]vitest['"]/.test(block.code) &&
  /^(?:it|describe|test)(?:\.\w+)*\(/m.test(block.code);

/** A block that is a vitest configuration file. */
const isConfigFile = (block: Block) =>
  block.lang === 'ts' && /\bfrom ['"]vitest\/config['"]/.test(block.code);

/** A file name from a heading: lower case, words joined by hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');

const guide = readFileSync(new URL('../../docs/testing.md', import.meta.url), 'utf8');
const blocks = fencedBlocks(guide);
const configs = blocks.filter(isConfigFile);
/** The guide's test files, each named after its heading (and its place under it). */
const examples = blocks.filter(isTestFile).map((block, index, all) => {
  const before = all.slice(0, index).filter((other) => other.heading === block.heading).length;
  const file = `${slug(block.heading)}${before === 0 ? '' : `-${before + 1}`}.test.ts`;
  return { ...block, file };
});

/** vitest's JSON report, the fields read here. */
interface JsonReport {
  readonly success: boolean;
  readonly numTotalTests: number;
  readonly numPassedTests: number;
  readonly testResults: readonly {
    readonly name: string;
    readonly status: string;
    readonly message: string;
    readonly assertionResults: readonly {
      readonly fullName: string;
      readonly status: string;
      readonly failureMessages: readonly string[];
    }[];
  }[];
}

/** The complete example: the first whole test file of the guide (it defines the properties). */
const complete = () => examples[0]!;

/** What pasting a printed counterexample came to: the printed message, and the pasted test's run. */
interface Replayed {
  readonly printed: string;
  readonly result?: JsonReport['testResults'][number]['assertionResults'][number];
  readonly run: CommandRun;
}

/**
 * In the fresh project: the complete example's planted bug is found, and what its failure prints
 * is written down (a test added to a copy of the example does that, as a user's terminal would
 * show it); the test printed after "Replay it" is pasted, as printed, at the end of another copy,
 * and run by vitest. It should fail, with the same verdict.
 */
async function pasteTheReplay(dir: string): Promise<Replayed> {
  const print = [
    complete().code,
    `it('prints the counterexample of the planted bug', async () => {`,
    `  const failure = await restartPollingEverySecond.assert({ numRuns: 100 }).catch((e) => e);`,
    `  (await import('node:fs')).writeFileSync('printed.txt', String(failure.message));`,
    `});`,
    '',
  ].join('\n');
  mkdirSync(join(dir, 'replay'));
  writeFileSync(join(dir, 'replay', 'print.test.ts'), print);
  await runCommand('npx', ['vitest', 'run', 'replay/print.test.ts'], dir, 240_000, {
    NO_COLOR: '1',
  });
  const printed = existsSync(join(dir, 'printed.txt'))
    ? readFileSync(join(dir, 'printed.txt'), 'utf8')
    : '';
  const lines = printed.split('\n');
  const at = lines.findIndex((line) => line.startsWith('Replay it: paste this test beside'));
  const pasted = at < 0 ? '' : lines.slice(at + 1).join('\n');
  writeFileSync(join(dir, 'replay', 'pasted.test.ts'), `${complete().code}\n${pasted}\n`);
  const run = await runCommand(
    'npx',
    ['vitest', 'run', 'replay/pasted.test.ts', '--reporter=json', '--outputFile=pasted.json'],
    dir,
    240_000,
    { NO_COLOR: '1' },
  );
  const file = join(dir, 'pasted.json');
  const json = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as JsonReport)
    : undefined;
  // The pasted test is the file's last one.
  const result = json?.testResults[0]?.assertionResults.at(-1);
  return { printed, run, ...(result === undefined ? {} : { result }) };
}

let replayed: Replayed;
let project: string | undefined;
let run: CommandRun;
let report: JsonReport | undefined;

/** The run's output, to read beside a failed assertion. */
const output = () => `vitest's output:\n${run.stdout}\n${run.stderr}`;

describe("docs/testing.md's examples, copied into a project that installs the packed tarball", () => {
  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'computesim-guide-'));
    const tarball = await packTarball(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'guide-user', private: true, type: 'module' }),
    );
    const install = await runCommand(
      'npm',
      [
        'install',
        '--save-dev',
        tarball,
        ...GUIDE_PACKAGES.map((name) => `${name}@${installedVersion(name)}`),
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
      ],
      project,
      300_000,
    );
    if (install.code !== 0)
      throw new Error(`npm install failed (exit ${install.code}):\n${install.stderr}`);
    for (const example of examples) writeFileSync(join(project, example.file), example.code);
    if (configs.length === 1) writeFileSync(join(project, 'vitest.config.ts'), configs[0]!.code);
    run = await runCommand(
      'npx',
      ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile=report.json'],
      project,
      480_000,
      { NO_COLOR: '1' },
    );
    const file = join(project, 'report.json');
    report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as JsonReport) : undefined;
    replayed = await pasteTheReplay(project);
  }, 900_000);

  afterAll(() => {
    if (project !== undefined) rmSync(project, { recursive: true, force: true });
  });

  it('finds at least three whole test files in the guide, and at most one configuration', () => {
    expect(
      examples.length,
      `docs/testing.md has ${examples.length} \`\`\`ts blocks that import from 'vitest' and call ` +
        `it(/describe( at their top level (${examples.map((e) => e.file).join(', ')}); ` +
        'expected at least 3: the complete example and the two of the serverless-driver chapter',
    ).toBeGreaterThanOrEqual(3);
    expect(configs.length, 'docs/testing.md shows more than one vitest configuration').toBeLessThan(
      2,
    );
  });

  it("runs them all with vitest's defaults (or the guide's one configuration): exit code 0", () => {
    const configFiles = readdirSync(project!).filter((f) => /^vite(st)?\.config\./.test(f));
    expect(configFiles).toEqual(configs.length === 0 ? [] : ['vitest.config.ts']);
    expect(run.timedOut, output()).toBe(false);
    expect(report, `no report.json: ${output()}`).toBeDefined();
    expect(report!.testResults.map((result) => basename(result.name)).sort()).toEqual(
      examples.map((example) => example.file).sort(),
    );
    expect(report!.numPassedTests, output()).toBe(report!.numTotalTests);
    expect(report!.success, output()).toBe(true);
    expect(run.code, output()).toBe(0);
  });

  it("the planted bug's printed counterexample, pasted as printed beside the example, fails the same way", () => {
    const why = `printed:\n${replayed.printed}\nvitest:\n${replayed.run.stdout}\n${replayed.run.stderr}`;
    expect(replayed.printed, why).toMatch(
      /^restartPollingEverySecond failed after \d+ runs? .*: pollsNoFasterThan$/m,
    );
    expect(replayed.printed, why).toContain('await restartPollingEverySecond.replay({');
    expect(replayed.result?.status, why).toBe('failed');
    expect(replayed.result?.fullName, why).toBe(
      'restartPollingEverySecond replays a counterexample (pollsNoFasterThan)',
    );
    expect(replayed.result?.failureMessages[0]?.split('\n')[0], why).toBe(
      'ClientPropertyError: restartPollingEverySecond failed: pollsNoFasterThan',
    );
  });

  it.each(examples.map((example) => [example.file, example] as const))(
    '%s passes as copied, every test of it',
    (file, example) => {
      const result = report?.testResults.find((r) => basename(r.name) === file);
      expect(result, `${file} did not run: ${output()}`).toBeDefined();
      const failures = result!.assertionResults
        .filter((test) => test.status !== 'passed')
        .map((test) => `${test.fullName}: ${test.status}\n${test.failureMessages.join('\n')}`);
      const where = `the block of docs/testing.md under "${example.heading}", as ${file}`;
      expect(failures, `${where}:\n${result!.message}\n${failures.join('\n\n')}`).toEqual([]);
      expect(result!.assertionResults.length, `${where} declares no test`).toBeGreaterThan(0);
      expect(result!.status, `${where}: ${result!.message}`).toBe('passed');
    },
  );
});
