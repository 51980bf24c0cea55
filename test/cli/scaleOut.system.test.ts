/**
 * Sweeps beyond one machine give what one machine gives: the same sweep whole, as three shards
 * merged, and through a real Redis queue with two worker processes, one killed mid-cell, prints the
 * same table and writes the same JSON, CSV and HTML report, byte for byte; more than ten cells wait
 * on the queue without a warning. Bad parts are one-line errors.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, startRedis, type RedisServer } from '../support/redisServer.js';
import { runCli } from '../support/runCli.js';
import { describeWith } from '../support/systemPrograms.js';

const STUDY = 'test/fixtures/nappingStudy.ts';
const SWEEP = ['--seeds', '2', '--workers', '1'];
const dir = mkdtempSync(join(tmpdir(), 'computesim-scale-out-'));
const at = (name: string) => join(dir, name);

const cli = (...argv: string[]) => runCli(argv, { toDisk: true });

/** What a sweep printed and wrote, for comparing ways of running it. */
async function outputs(prefix: string, ...argv: string[]) {
  const json = at(`${prefix}.json`);
  const csv = at(`${prefix}.csv`);
  const report = at(`${prefix}.html`);
  const { code, out, err } = await cli(...argv, '--json', json, '--csv', csv, '--report', report);
  return {
    code,
    err: err.filter((line) => line !== `report written to ${report}`),
    printed: out.join('\n'),
    json: readFileSync(json, 'utf8'),
    csv: readFileSync(csv, 'utf8'),
    report: readFileSync(report, 'utf8'),
  };
}

/** `computesim worker` in a process of its own, and the lines it printed so far. */
function startWorker(url: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/run.ts', 'worker', '--queue', url, '--lock-duration', '2s'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, COMPUTESIM_TEST_NAP_MS: '1000' },
    },
  );
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const printed = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const look = () => {
        if (pattern.test(out)) resolve();
        else if (child.exitCode !== null) reject(new Error(`worker exited: ${out}`));
        else child.stdout?.once('data', look);
      };
      look();
    });
  return { child, printed, exited, output: () => out };
}

describeWith('redis-server', 'sweep beyond one machine', () => {
  let redis: RedisServer;
  let workers: ReturnType<typeof startWorker>[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const worker of workers) worker.child.kill('SIGKILL');
    await Promise.all(workers.map((worker) => worker.exited));
    await redis?.stop();
  });

  it('prints and writes the same whole, as 3 shards merged, and through the queue with a worker killed mid-cell', async () => {
    const whole = await outputs('whole', 'sweep', STUDY, ...SWEEP);
    expect(whole.code).toBe(0);
    expect(whole.printed).toMatch(/3 points × 2 seeds/);
    expect(whole.report).toMatch(/^<!doctype html>[\s\S]*<svg /);

    for (const shard of ['1/3', '2/3', '3/3']) {
      const part = await cli(
        'sweep',
        STUDY,
        ...SWEEP,
        '--shard',
        shard,
        '--out',
        at(`part-${shard[0]}.json`),
      );
      expect(part.code).toBe(0);
    }
    const merged = await outputs(
      'merged',
      'sweep',
      '--merge',
      at('part-3.json'),
      at('part-1.json'),
      at('part-2.json'),
    );
    expect(merged).toEqual(whole);

    workers = [startWorker(redis.url), startWorker(redis.url)];
    const [doomed, survivor] = workers as [
      ReturnType<typeof startWorker>,
      ReturnType<typeof startWorker>,
    ];
    await Promise.all(workers.map((w) => w.printed(/waiting for cells/)));
    const queued = outputs('queued', 'sweep', STUDY, '--seeds', '2', '--queue', redis.url);
    await doomed.printed(/cell \S+ started/);
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const viaQueue = await queued;
    expect(viaQueue.err).toEqual(['sweep: 1 cell was run again after a worker stopped mid-way']);
    expect({ ...viaQueue, err: [] }).toEqual(whole);
    const startedOnDoomed = /cell (\S+) started/.exec(doomed.output())![1];
    expect(doomed.output()).not.toMatch(new RegExp(`cell ${startedOnDoomed} done`));
    expect(survivor.output()).toMatch(new RegExp(`cell ${startedOnDoomed} done`));
  }, 120_000);

  it.each([
    [
      ['part-1.json', 'part-2.json'],
      /^computesim: merge: missing shard 3\/3 \(no part given for it\)$/,
    ],
    [
      ['part-1.json', 'part-2.json', 'part-2.json', 'part-3.json'],
      /^computesim: merge: shard 2\/3 is given twice: \S+part-2.json and \S+part-2.json$/,
    ],
    [
      ['part-1.json', 'whole.json'],
      /^computesim: merge: \S+whole.json is not a sweep part \(computesim sweep --shard writes them\)$/,
    ],
    [['part-1.json', 'nope.json'], /^computesim: merge: cannot read \S+nope.json: no such file$/],
  ])('refuses to merge %j with one line', async (files, message) => {
    const { code, err } = await cli('sweep', '--merge', ...files.map(at));
    expect(code).not.toBe(0);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(message);
  });

  it('refuses a part of another sweep, naming it', async () => {
    await cli('sweep', STUDY, '--seeds', '3', '--shard', '1/3', '--out', at('other.json'));
    const { code, err } = await cli(
      'sweep',
      '--merge',
      at('other.json'),
      at('part-2.json'),
      at('part-3.json'),
    );
    expect(code).toBe(1);
    expect(err).toEqual([
      expect.stringMatching(/merge: \S+part-2.json is from another sweep than \S+other.json/),
    ]);
  });

  it('prints and writes the same fleet on threads, as 2 shards merged, and through the queue', async () => {
    const fleet = 'test/fixtures/tinyFleet.ts';
    const run = async (prefix: string, ...argv: string[]) => {
      const { code, out, err } = await cli(...argv, '--json', at(`${prefix}.json`));
      return {
        code,
        err,
        printed: out.join('\n'),
        json: readFileSync(at(`${prefix}.json`), 'utf8'),
      };
    };
    const threads = await run('fleet-threads', 'fleet', fleet, '--threads', '2');
    expect(threads.code).toBe(0);
    expect(threads.printed).toMatch(/percentiles .* at most 0\.10% above the exact values/);
    for (const shard of ['1/2', '2/2'])
      await cli(
        'fleet',
        fleet,
        '--threads',
        '1',
        '--shard',
        shard,
        '--out',
        at(`fleet-${shard[0]}.json`),
      );
    expect(
      await run('fleet-merged', 'fleet', '--merge', at('fleet-2.json'), at('fleet-1.json')),
    ).toEqual(threads);
    const worker = startWorker(redis.url);
    workers.push(worker);
    await worker.printed(/waiting for cells/);
    expect(await run('fleet-queued', 'fleet', fleet, '--queue', redis.url)).toEqual(threads);
    const missing = await cli('fleet', '--merge', at('fleet-1.json'));
    expect(missing.err).toEqual([
      'computesim: fleet tiny-fleet: projects missing (measured 0-1 of 0-4)',
    ]);
  }, 120_000);

  it('waits for more than ten cells at once without piling up listeners (no warning on stderr)', async () => {
    const study = 'test/fixtures/tinyStudy.ts';
    const local = await cli('sweep', study, '--seeds', '4', '--workers', '1');
    expect(local.out.join('\n')).toMatch(/3 points × 4 seeds/);
    const worker = startWorker(redis.url);
    workers.push(worker);
    await worker.printed(/waiting for cells/);
    // In a process of its own, to see what Node itself writes to stderr.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/run.ts', 'sweep', study, '--seeds', '4', '--queue', redis.url],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(stderr).not.toMatch(/MaxListenersExceededWarning/);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(`${local.out.join('\n')}\n`);
  }, 120_000);

  it('says so in one line when no Redis answers at the queue URL', async () => {
    const port = await freePort();
    const { code, err } = await cli('sweep', STUDY, '--queue', `redis://127.0.0.1:${port}`);
    expect(code).toBe(1);
    expect(err).toEqual([
      `computesim: sweep: cannot reach Redis at redis://127.0.0.1:${port} (connect ECONNREFUSED 127.0.0.1:${port})`,
    ]);
  });

  it('takes the shard index from JOB_COMPLETION_INDEX, and refuses shards that do not exist', async () => {
    process.env['JOB_COMPLETION_INDEX'] = '1';
    try {
      await cli('sweep', STUDY, ...SWEEP, '--shard', '3', '--out', at('indexed.json'));
    } finally {
      delete process.env['JOB_COMPLETION_INDEX'];
    }
    expect(readFileSync(at('indexed.json'), 'utf8')).toBe(readFileSync(at('part-2.json'), 'utf8'));
    expect((await cli('sweep', STUDY, '--shard', '4/3')).err).toEqual([
      'computesim: --shard: the shard index must be 1 to 3, got 4',
    ]);
    expect((await cli('sweep', STUDY, '--shard', '3')).err).toEqual([
      'computesim: --shard 3 needs an index: give --shard i/3, or set JOB_COMPLETION_INDEX (0-based)',
    ]);
    expect((await cli('sweep', STUDY, '--queue', 'http://x')).err).toEqual([
      'computesim: --queue wants redis://HOST:PORT, got "http://x"',
    ]);
  });
});
