/**
 * The what-if studies in scenarios/ run through the command line (`computesim compare`, as
 * `npm start -- compare …` runs it) and their figures move the way the settings say they should;
 * the header of a sweep or comparison run for another span than the study's says only that span.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/runCli.js';
import { SPAN_PHRASE } from '../support/spanPhrase.js';

const compare = (study: string) =>
  execFileSync('npx', ['tsx', 'src/cli/run.ts', 'compare', study], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

describe('what-if studies', () => {
  it('suspend timeouts: 60 s costs less and starts more than 300 s; never suspending costs most', () => {
    const out = compare('scenarios/suspend-timeout-study.ts');
    expect(out).toMatch(/^suspend-timeout: 40 office-hours projects/);
    expect(out).toMatch(/timeout 300 s\s+timeout 60 s \(Δ\)\s+never suspend \(Δ\)/);
    expect(out).toMatch(/^CU-hours .*\(−.*\(\+/m);
    expect(out).toMatch(/^cold starts felt .*\(\+.*\(−/m);
  }, 60_000);

  it('autoscaling 0.25-2 CU costs less than a fixed 1 CU for the bursty workload', () => {
    const out = compare('scenarios/autoscaling-study.ts');
    expect(out).toMatch(/fixed 1 CU\s+autoscaling 0\.25-2 CU \(Δ\)/);
    expect(out).toMatch(/^CU-hours .*\(−/m);
    expect(out).toMatch(/^autoscaling moves\s+0\s+\d+ \(\+\d+\)/m);
  }, 60_000);

  it.each([['sweep', '--seeds', '1', '--workers', '1'], ['compare']])(
    '%s under --duration 1h: a header that states the span run, and no other',
    async (command, ...flags) => {
      const { code, out } = await runCli([
        command,
        'scenarios/suspend-timeout-study.ts',
        ...flags,
        '--duration',
        '1h',
      ]);
      expect(code).toBe(0);
      expect(out[0]).toMatch(/^suspend-timeout: /);
      expect(out[0]).not.toMatch(SPAN_PHRASE);
      expect(out[1]).toMatch(/\b1h of virtual time\b/);
    },
    60_000,
  );
});
