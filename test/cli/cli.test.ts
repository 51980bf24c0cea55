import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { Simulation } from '../../src/index.js';

function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = main(
    argv,
    (l) => out.push(l),
    (l) => err.push(l),
  );
  return { code, out, err };
}

function logFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'computesim-')), 'run.jsonl');
  writeFileSync(file, text);
  return file;
}

const sim = new Simulation({ seed: 5 });
sim.request('POST', '/projects', { project: { name: 'cli' } });
sim.advance('10m');

describe('computesim CLI', () => {
  it('prints help and the version', () => {
    expect(run('--help').out.join('\n')).toMatch(/Usage: computesim/);
    expect(run('--version').out[0]).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('runs the demo', () => {
    const { code, out } = run('demo', '--seed', '3');
    expect(code).toBe(0);
    expect(out.at(-2)).toMatch(/scaled to zero/);
  });

  it('narrates a log and shows the state at a time', () => {
    const file = logFile(sim.toJSONL());
    const narrated = run('replay', file);
    expect(narrated.code).toBe(0);
    const bookkeeping = new Set(['ClockAdvanced', 'AvailabilityCheckScheduled']);
    expect(narrated.out).toHaveLength([...sim.log].filter((e) => !bookkeeping.has(e.type)).length);
    expect(narrated.out.at(-1)).toMatch(/is idle$/);
    const early = run('replay', file, '--at', '+2s');
    expect(early.out.join('\n')).toMatch(/init, pending active/);
    const late = run('replay', file, '--at', '+9m');
    expect(late.out.join('\n')).toMatch(/ idle, last active/);
  });

  it('warns about a torn last line and still replays the rest', () => {
    const text = sim.toJSONL();
    const { code, err } = run('replay', logFile(text.slice(0, text.length - 20)));
    expect(code).toBe(0);
    expect(err[0]).toMatch(/warning: .* incomplete last line ignored/);
  });

  it.each([
    [['bogus'], 2, /unknown command "bogus"/],
    [['demo', '--seed', 'x'], 2, /--seed must be a whole number/],
    [['demo', '--fast'], 2, /Unknown option '--fast'/],
    [['replay'], 2, /expected a log file/],
    [['replay', '/no/such/file.jsonl'], 1, /cannot read \/no\/such\/file.jsonl: ENOENT/],
    [['replay', 'LOG', '--at', '+5x'], 2, /Invalid duration "5x"/],
    [['replay', 'LOG', '--at', '+30d'], 2, /after the last event/],
    [['replay', 'LOG', '--at', 'yesterday'], 2, /Invalid instant/],
    [['replay', 'BAD'], 1, /line 2: not JSON/],
  ])('%j fails with exit %d and one line: %s', (argv, code, message) => {
    const good = logFile(sim.toJSONL());
    const bad = logFile(`${sim.toJSONL().split('\n')[0]}\n{oops\n{}\n`);
    const result = run(...argv.map((a) => (a === 'LOG' ? good : a === 'BAD' ? bad : a)));
    expect(result.code).toBe(code);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(message);
    expect(result.out).toEqual([]);
  });
});
