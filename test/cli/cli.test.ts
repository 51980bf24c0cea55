import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateFileLock } from '../../src/http/stateFileLock.js';
import { Simulation } from '../../src/index.js';
import { runCli } from '../support/runCli.js';

const run = (...argv: string[]) => runCli(argv);

function logFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'computesim-')), 'run.jsonl');
  writeFileSync(file, text);
  return file;
}

const sim = new Simulation({ seed: 5 });
sim.request('POST', '/projects', { project: { name: 'cli' } });
sim.advance('10m');

describe('computesim CLI', () => {
  it('prints help and the version', async () => {
    expect((await run('--help')).out.join('\n')).toMatch(/Usage: computesim/);
    expect((await run('--version')).out[0]).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('runs the demo', async () => {
    const { code, out } = await run('demo', '--seed', '3');
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(/scaled to zero/);
    expect(out).toContain('passed: 3 expectations held, 19 events logged');
  });

  it('runs a scenario file: timeline, verdict, metrics summary, and its log on request', async () => {
    const { code, out, err, files } = await run(
      'run',
      'scenarios/quickstart.ts',
      '--seed',
      '5',
      '--log',
      'q.jsonl',
    );
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(out[1]).toBe('seed 5, virtual start 2026-01-05T09:00:00Z');
    expect(out[2]).toMatch(/^\+00:00:00\.000 {2}POST \/projects/);
    expect(out).toContain('  starts 1 · suspends 1 · autoscaling moves 0');
    const replayed = Simulation.fromJSONL(files.get('q.jsonl')!).simulation;
    expect(replayed.log.length).toBe(19);
    const withReport = await run('run', 'scenarios/quickstart.ts', '--quiet', '--report', 'q.html');
    expect(withReport.files.get('q.html')).toMatch(/^<!doctype html>[\s\S]*<svg/);
    const quiet = await run('run', 'scenarios/quickstart.ts', '--quiet');
    expect(quiet.out.some((line) => line.startsWith('+'))).toBe(false);
    expect(quiet.out).toContain('passed: 3 expectations held, 19 events logged');
  });

  it('prints a run as JSON with --json', async () => {
    const { code, out } = await run('run', 'scenarios/quickstart.ts', '--json');
    expect(code).toBe(0);
    const json = JSON.parse(out.join('\n'));
    expect(json).toMatchObject({ scenario: 'quickstart', seed: 42, passed: true, checks: 3 });
    expect(json.timeline[0]).toEqual({
      at: '2026-01-05T09:00:00Z',
      offsetMs: 0,
      kind: 'request',
      text: 'POST /projects {"project":{"name":"quickstart"}}',
    });
    expect(json.metrics.starts).toBe(1);
  });

  it('fails a scenario whose expectation does not hold: exit 1, one line saying when and what', async () => {
    const { code, out, err } = await run('run', 'test/fixtures/failingScenario.ts');
    expect(code).toBe(1);
    expect(err).toEqual([
      'computesim: scenario failing failed at +00:06:00.000: expected state of the compute to be "active", got "idle"',
    ]);
    expect(out).toContain(
      'FAILED at +00:06:00.000 (2026-01-05T00:06:00Z): expected state of the compute to be "active", got "idle"',
    );
  });

  it('narrates a log and shows the state at a time', async () => {
    const file = logFile(sim.toJSONL());
    const narrated = await run('replay', file);
    expect(narrated.code).toBe(0);
    const bookkeeping = new Set(['ClockAdvanced', 'AvailabilityCheckScheduled']);
    expect(narrated.out).toHaveLength([...sim.log].filter((e) => !bookkeeping.has(e.type)).length);
    expect(narrated.out.at(-1)).toMatch(/is idle$/);
    const early = await run('replay', file, '--at', '+2s');
    expect(early.out.join('\n')).toMatch(/init, pending active/);
    const late = await run('replay', file, '--at', '+9m');
    expect(late.out.join('\n')).toMatch(/ idle, last active/);
  });

  it('warns about a torn last line and still replays the rest', async () => {
    const text = sim.toJSONL();
    const { code, err } = await run('replay', logFile(text.slice(0, text.length - 20)));
    expect(code).toBe(0);
    expect(err[0]).toMatch(/warning: .* incomplete last line .*ignored/);
  });

  it.each([
    [['bogus'], 2, /unknown command "bogus"/],
    [['demo', '--seed', 'x'], 2, /--seed must be a whole number/],
    [['demo', '--fast'], 2, /^computesim: unknown option --fast; --help lists the options$/],
    [['demo', '--sed', '3'], 2, /unknown option --sed \(did you mean --seed\?\); --help lists/],
    [['replay'], 2, /expected a log file/],
    [['replay', '/no/such/file.jsonl'], 1, /cannot read \/no\/such\/file.jsonl: ENOENT/],
    [['replay', 'LOG', '--at', '+5x'], 2, /Invalid duration "5x"/],
    [['replay', 'LOG', '--at', '+30d'], 2, /after the last event/],
    [['replay', 'LOG', '--at', 'yesterday'], 2, /Invalid instant/],
    [['replay', 'BAD'], 1, /line 2: not JSON/],
    [['serve', '--profile', 'yesterday'], 2, /--profile must be one of seed, current/],
    [['serve', '--pg-port', '70000'], 2, /--pg-port must be at most 65535, got 70000/],
    [['serve', '--pg-port', 'x'], 2, /--pg-port must be a whole number/],
    [
      ['serve', '--pg-data', '/tmp/x'],
      2,
      /--pg-data, --pg-engine, --pg-max-open and --pg-tls-cert\/--pg-tls-key go with --pg-port/,
    ],
    [
      ['serve', '--pg-port', '0', '--pg-engine', 'mysql'],
      2,
      /--pg-engine must be one of pglite, postgres, got "mysql"/,
    ],
    [
      ['serve', '--pg-port', '0', '--pg-engine', 'postgres', '--pg-max-open', '2'],
      2,
      /--pg-max-open goes with --pg-engine pglite/,
    ],
    [
      ['serve', '--pg-port', '0', '--pg-tls-cert', '/tmp/c.pem'],
      2,
      /--pg-tls-cert and --pg-tls-key go together/,
    ],
    [
      [
        'serve',
        '--pg-port',
        '0',
        '--pg-tls-cert',
        '/nonexistent/c.pem',
        '--pg-tls-key',
        '/nonexistent/k.pem',
      ],
      1,
      /cannot start the Postgres front: cannot read the TLS certificate \/nonexistent\/c\.pem: ENOENT/,
    ],
    [['serve', '--pg-port', '0', '--pg-max-open', '0'], 2, /--pg-max-open must be/],
  ])('%j fails with exit %d and one line: %s', async (argv, code, message) => {
    const good = logFile(sim.toJSONL());
    const bad = logFile(`${sim.toJSONL().split('\n')[0]}\n{oops\n{}\n`);
    const result = await run(...argv.map((a) => (a === 'LOG' ? good : a === 'BAD' ? bad : a)));
    expect(result.code).toBe(code);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(message);
    expect(result.out).toEqual([]);
  });

  it('compares a study file’s configurations and saves them as JSON', async () => {
    const { code, out, err, files } = await run(
      'compare',
      'test/fixtures/tinyStudy.ts',
      '--workers',
      '2',
      '--json',
      'out.json',
    );
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(out[0]).toBe('tiny: three projects, six hours');
    expect(out[1]).toBe('seed 11, 6h of virtual time per configuration');
    expect(out.join('\n')).toMatch(/timeout 300 s\s+timeout 60 s \(Δ\)\n^CU-hours /m);
    const saved = JSON.parse(files.get('out.json')!);
    expect(saved.comparison.rows.map((r: { name: string }) => r.name)).toEqual([
      'timeout 300 s',
      'timeout 60 s',
    ]);
  }, 30_000);

  it('sweeps a grid over seeds and writes the table, JSON and CSV', async () => {
    const { code, out, err, files } = await run(
      'sweep',
      'test/fixtures/tinyStudy.ts',
      '--param',
      'suspendTimeout=60,-1',
      '--seeds',
      '3,4',
      '--duration',
      '2h',
      '--figures',
      'cuHours,coldStarts',
      '--json',
      'sweep.json',
      '--csv',
      'sweep.csv',
      '--report',
      'sweep.html',
    );
    expect(code).toBe(0);
    expect(out[1]).toBe('2 points × 2 seeds (3, 4), 2h of virtual time each; mean ±95% interval');
    expect(out[3]).toMatch(/^point\s+seeds\s+CU-hours\s+cold starts felt$/);
    expect(out.slice(4).map((line) => line.split(/\s{2,}/)[0])).toEqual([
      'suspendTimeout=60',
      'suspendTimeout=-1',
    ]);
    expect(JSON.parse(files.get('sweep.json')!).points[1].runs[0].seed).toBe(3);
    expect(files.get('sweep.csv')!.split('\n')[2]).toMatch(/^suspendTimeout=-1,-1,2,/);
    // The report charts the table's figures, and lists the grid.
    const report = files.get('sweep.html')!;
    expect(report).toMatch(/^<!doctype html>/);
    expect(report.match(/<svg /g)).toHaveLength(2);
    expect(report).toContain('<h2>cold starts felt</h2>');
    expect(report.match(/<tr><th scope="row">suspendTimeout=/g)).toHaveLength(2);
    expect(err).toEqual(['report written to sweep.html']);
  }, 30_000);

  it('compares over several seeds: paired differences with intervals, and a report', async () => {
    const { code, out, err, files } = await run(
      'compare',
      'test/fixtures/tinyStudy.ts',
      '--seeds',
      '2',
      '--duration',
      '2h',
      '--workers',
      '1',
      '--json',
      'compare.json',
      '--report',
      'compare.html',
    );
    expect(err).toEqual(['report written to compare.html']);
    expect(code).toBe(0);
    expect(out[1]).toBe(
      'seeds 11, 12, each under every configuration, 2h of virtual time per configuration; ' +
        'mean ±95% interval, Δ: mean paired difference ±95% interval',
    );
    expect(out.find((line) => line.startsWith('starts'))).toMatch(
      /^starts\s+\d+ ±\d+\s+\d+ ±\d+ \(\+\d+ ±\d+, \+\d+%\)$/,
    );
    const saved = JSON.parse(files.get('compare.json')!);
    expect(saved.seeds).toEqual([11, 12]);
    expect(saved.paired.arms[1].difference.starts.n).toBe(2);
    const report = files.get('compare.html')!;
    expect(report).toContain('<table class="metrics paired">');
    expect(report.match(/<g class="lane arm-1">/g)).toHaveLength(3);
    expect(report.match(/<svg /g)).toHaveLength(3);
  }, 30_000);

  it.each([
    ['compare', '--report'],
    ['compare', '--json'],
    ['sweep', '--report'],
    ['sweep', '--csv'],
  ])(
    '%s refuses a %s file it cannot write before running anything, in one line',
    async (command, flag) => {
      const nowhere = join(mkdtempSync(join(tmpdir(), 'computesim-')), 'no-such-dir', 'r.html');
      const { code, out, err } = await runCli(
        [
          command,
          'test/fixtures/tinyStudy.ts',
          '--duration',
          '1h',
          '--workers',
          '1',
          flag,
          nowhere,
        ],
        { toDisk: true },
      );
      expect(out).toEqual([]);
      expect(err).toEqual([
        `computesim: ${flag} ${nowhere}: the folder ${join(nowhere, '..')} does not exist`,
      ]);
      expect(code).toBe(2);
    },
  );

  it('refuses an output path that is a folder', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'computesim-'));
    const { code, err } = await run('sweep', 'test/fixtures/tinyStudy.ts', '--json', folder);
    expect(err).toEqual([`computesim: --json ${folder}: ${folder} is a folder`]);
    expect(code).toBe(2);
  });

  // A supervisor must tell "another server holds the file" (wait, or stop it) from "the file is
  // damaged or unreadable" (repair it): 4 and 3, and `serve --help` lists them.
  describe('serve refusing its state file', () => {
    it('exits 4 when a live server holds it', async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'computesim-')), 'state.jsonl');
      const lock = StateFileLock.acquire(file); // a server of this process: alive
      try {
        const { code, out, err } = await run('serve', '--port', '0', '--state-file', file);
        expect(err).toHaveLength(1);
        expect(err[0]).toMatch(/^computesim: \S+ is in use by process \d+ on .*stop that server/);
        expect(out).toEqual([]);
        expect(code).toBe(4);
      } finally {
        lock.release();
      }
    });

    it('exits 3 when it is damaged, and leaves it as it was', async () => {
      const damaged =
        '{"computesim":"state-file","version":1}\n{"type":"Bogus","seq":0}\n{"commit":1,"crc32":1}\n';
      const file = logFile(damaged);
      const { code, out, err } = await run('serve', '--port', '0', '--state-file', file);
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(/cannot be loaded: line 3: .*edited or damaged/);
      expect(out).toEqual([]);
      expect(code).toBe(3);
      expect(readFileSync(file, 'utf8')).toBe(damaged);
    });

    it('exits 3 when it cannot be read', async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'computesim-')), 'state.jsonl');
      mkdirSync(file); // a folder: EISDIR, whoever runs the test (root reads any mode)
      const { code, out, err } = await run('serve', '--port', '0', '--state-file', file);
      expect(err).toEqual([`computesim: cannot open ${file}: EISDIR`]);
      expect(out).toEqual([]);
      expect(code).toBe(3);
    });

    it('lists its exit codes in serve --help', async () => {
      const help = (await run('serve', '--help')).out.join('\n');
      expect(help).toMatch(/^ {2}3 {2}the state file is damaged or cannot be read/m);
      expect(help).toMatch(/^ {2}4 {2}the state file is in use by another live server/m);
    });
  });

  it('shows each command’s help', async () => {
    for (const command of ['demo', 'run', 'replay', 'compare', 'sweep']) {
      const { code, out } = await run(command, '--help');
      expect(code).toBe(0);
      expect(out[0]).toMatch(new RegExp(`^Usage: computesim ${command}`));
    }
  });

  it.each([
    [['run'], 2, /expected a scenario file/],
    [['run', 'scenarios/nope.ts'], 1, /cannot load scenario scenarios\/nope.ts: no such file/],
    [
      ['run', 'test/fixtures/tinyStudy.ts'],
      1,
      /does not export a scenario: it is a study \(defineStudy\): run it with computesim compare/,
    ],
    [['run', 'scenarios/quickstart.ts', '--seed', 'x'], 2, /--seed must be a whole number/],
    [
      ['run', 'scenarios/quickstart.ts', '--colour'],
      2,
      /unknown option --colour; --help lists the options/,
    ],
    [['compare'], 2, /expected a study file/],
    [
      ['compare', 'test/fixtures/badSettingsStudy.ts'],
      1,
      /badSettingsStudy.ts does not export a study: duration: Invalid duration "7 days"/,
    ],
    [
      ['sweep', 'test/fixtures/tinyStudy.ts', '--param', 'suspendTimeout=60,6e1'],
      2,
      /--param: suspendTimeout repeats a value/,
    ],
    [
      ['compare', 'test/fixtures/nope.ts'],
      1,
      /cannot load study test\/fixtures\/nope.ts: no such file/,
    ],
    [['compare', 'test/fixtures/notAStudy.ts'], 1, /does not export a study/],
    [
      ['compare', 'src/core/duration.ts'],
      1,
      /duration.ts has no default export \(export default defineStudy\(\{ ... \}\), with import \{ defineStudy \} from 'computesim\/studies'\)/,
    ],
    [
      ['run', 'src/core/duration.ts'],
      1,
      /has no default export \(export default defineScenario\(\{ ... \}\), with import \{ defineScenario \} from 'computesim'\)/,
    ],
    [
      ['compare', 'test/fixtures/tinyStudy.ts', '--duration', '5 days'],
      2,
      /--duration: Invalid duration/,
    ],
    [
      ['sweep', 'test/fixtures/tinyStudy.ts', '--seeds', '0'],
      2,
      /--seeds must be a whole number ≥ 1, got "0"/,
    ],
    [
      ['sweep', 'test/fixtures/tinyStudy.ts', '--workers', 'many'],
      2,
      /--workers must be a whole number/,
    ],
    [['sweep', 'test/fixtures/tinyStudy.ts', '--param', 'bogus=1'], 2, /unknown parameter "bogus"/],
    [['sweep', 'test/fixtures/tinyStudy.ts', '--param', 'projects'], 2, /--param wants name=value/],
    [
      ['sweep', 'test/fixtures/tinyStudy.ts', '--figures', 'speed'],
      2,
      /--figures: unknown figure "speed"/,
    ],
    [
      ['sweep', 'test/fixtures/tinyStudy.ts', '--configurations', '--param', 'projects=1'],
      2,
      /do not go together/,
    ],
    [
      ['compare', 'test/fixtures/tinyStudy.ts', '--report'],
      2,
      /'--report <value>' argument missing/,
    ],
    [['sweep', 'test/fixtures/tinyStudy.ts', '--report'], 2, /'--report <value>' argument missing/],
    [
      ['sweep', 'test/fixtures/tinyStudy.ts', '--shard', '1/2', '--report', 'r.html'],
      2,
      /--json, --csv and --report go with --merge/,
    ],
    [
      ['compare', 'test/fixtures/tinyStudy.ts', '--seed', '3', '--seeds', '4,5'],
      2,
      /--seed and a list of --seeds do not go together/,
    ],
    [
      ['compare', 'test/fixtures/tinyStudy.ts', '--seeds', '0'],
      2,
      /--seeds must be a whole number ≥ 1/,
    ],
    [
      ['sweep', 'test/fixtures/brokenStudy.ts', '--seeds', '1', '--configurations'],
      1,
      /run 2 failed: setup refused on purpose/,
    ],
  ])(
    '%j fails with exit %d and one line: %s',
    async (argv, code, message) => {
      const result = await run(...argv);
      expect(result.err).toHaveLength(1);
      expect(result.err[0]).toMatch(message);
      expect(result.code).toBe(code);
      expect(result.out).toEqual([]);
      expect(result.files.size).toBe(0);
    },
    30_000,
  );
});
