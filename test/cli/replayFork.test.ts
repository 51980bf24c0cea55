/**
 * `computesim replay --fork-at`: both futures' figures side by side with deltas (lined up), an HTML report on
 * request, and one-line usage errors (exit 2) or refusals (exit 1) for bad flags.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { expectDeltasInColumns } from '../support/deltaColumns.js';
import { runCli } from '../support/runCli.js';

const run = (...argv: string[]) => runCli(argv);

const sim = new Simulation({ seed: 6, start: '2026-01-06T00:00:00Z' });
const endpointId: string = sim.request('POST', '/projects', { project: { name: 'day' } }).body
  .endpoints[0].id;
sim.addWorkload({ kind: 'poisson', endpointId, rates: 4, session: { duration: '2m' } });
sim.advance('1d');
const file = join(mkdtempSync(join(tmpdir(), 'computesim-')), 'day.jsonl');
writeFileSync(file, sim.toJSONL());

describe('computesim replay --fork-at', () => {
  it('prints both futures side by side with deltas, and writes a report on request', async () => {
    const { code, out, err, files } = await run(
      'replay',
      file,
      '--fork-at',
      '2026-01-06T12:00Z',
      '--set',
      'suspendTimeout=60',
      '--report',
      'fork.html',
    );
    expect(err).toEqual(['report written to fork.html']);
    expect(code).toBe(0);
    const text = out.join('\n');
    expect(out[0]).toBe(`${file} forked at 2026-01-06T12:00:00Z: suspendTimeout=60`);
    expect(text).toMatch(/from the fork at 2026-01-06T12:00:00Z to 2026-01-07T00:00:00Z/);
    expect(text).toMatch(/as run\s+suspendTimeout=60 \(Δ\)/);
    expect(text).toMatch(/CU-hours\s+[\d.]+\s+[\d.]+ \(−/);
    expect(text).toMatch(/sessions\s+(\d+)\s+\1 \(±0, ±0%\)/);
    expectDeltasInColumns(text.split('\n\n')[1]!);
    expect(files.get('fork.html')).toMatch(/<h1>Fork of .*day\.jsonl<\/h1>/);
  });

  it('runs both futures to --until, past the end of the log', async () => {
    const { code, out } = await run(
      'replay',
      file,
      '--fork-at',
      '+18h',
      '--until',
      '+30h',
      '--set',
      `${endpointId}.suspendTimeout=120`,
      '--set',
      'w1.rateScale=2',
    );
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(/to 2026-01-07T06:00:00Z/);
  });

  it.each([
    [['--fork-at', '+1h'], 2, /--fork-at needs at least one --set/],
    [['--set', 'suspendTimeout=60'], 2, /--set needs --fork-at/],
    [['--report', 'x.html'], 2, /--report needs --fork-at/],
    [['--at', '+1h', '--fork-at', '+1h', '--set', 'a=1'], 2, /do not go together/],
    [['--fork-at', '+3d', '--set', 'suspendTimeout=60'], 2, /after the last event/],
    [['--fork-at', 'noon', '--set', 'suspendTimeout=60'], 2, /Invalid instant/],
    [['--fork-at', '+2h', '--until', '+1h', '--set', 'suspendTimeout=60'], 2, /before --fork-at/],
    [['--fork-at', '+1h', '--set', 'suspendTimeout'], 2, /--set wants NAME=VALUE/],
    [['--fork-at', '+1h', '--set', 'a=1', '--set', 'a=2'], 2, /given twice/],
    [['--fork-at', '+1h', '--set', '__proto__.x=1'], 2, /there is no setting __proto__/],
    [['--fork-at', '+1h', '--set', 'ep-x.color=red'], 2, /a compute's setting is one of/],
    [['--fork-at', '+1h', '--set', 'suspendTimeout=5'], 1, /must be a whole number of seconds/],
    [['--fork-at', '+1h', '--set', 'ep-nope.minCu=1'], 1, /no compute ep-nope/],
    [['--fork-at', '+1h', '--set', 'nope=1'], 1, /unknown setting "nope"/],
  ])('refuses %j with one line', async (flags, exit, message) => {
    const { code, err, out } = await run('replay', file, ...flags);
    expect(code).toBe(exit);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(message);
    expect(out).toEqual([]);
  });
});
