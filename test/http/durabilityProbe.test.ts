/**
 * What a hostile probe of `computesim serve` found, one test each: a clock pushed past the last
 * date, a long advance holding every request, a torn or blank state file, a malformed reset, two
 * servers on one file (by one name or through links; a killed one not reaped yet holds it no
 * longer), a flood of random keys, a huge snapshot, a file cut inside a request, and a reset
 * answering with the old clock. Each runs the real server in its own process.
 */
import {
  appendFileSync,
  linkSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/api/rateLimiter.js';
import { callJson } from '../support/callJson.js';
import { pollUntil } from '../support/pollUntil.js';
import {
  killAllServeProcesses,
  runServeToExit,
  SERVE_KEY,
  startServe,
  type ServeProcess,
} from '../support/serveProcess.js';
import {
  HAS_PROC_STATES,
  processState,
  underNonReapingParent,
  untilZombie,
} from '../support/zombie.js';

afterEach(killAllServeProcesses);

const root = fileURLToPath(new URL('../..', import.meta.url));
const stateFile = () => join(mkdtempSync(join(tmpdir(), 'computesim-probe-')), 'state.jsonl');

async function createProject(server: ServeProcess, name: string): Promise<string> {
  const created = await server.call('POST', '/projects', { project: { name } });
  expect(created.status).toBe(201);
  return created.body?.['project'].id as string;
}

async function projectNames(server: ServeProcess): Promise<string[]> {
  const listed = await server.call('GET', '/projects');
  expect(listed.status).toBe(200);
  return (listed.body?.['projects'] as { name: string }[]).map((p) => p.name).sort();
}

describe('the clock', () => {
  it('refuses an advance past the last representable instant with 400, and nothing moves', async () => {
    const file = stateFile();
    const server = await startServe(['--state-file', file]);
    await createProject(server, 'before');
    const before = await server.call('GET', '/_sim/clock');
    const refused = await server.call('POST', '/_sim/advance', { by: '100000000d' });
    expect(refused.status).toBe(400);
    expect(refused.body?.['message']).toMatch(/9999-12-31T23:59:59\.999Z/);
    expect((await server.call('GET', '/_sim/clock')).body).toEqual(before.body);
    await createProject(server, 'after');
    await server.kill();
    const again = await startServe(['--state-file', file]);
    expect(await projectNames(again)).toEqual(['after', 'before']);
    expect((await again.call('GET', '/_sim/clock')).body).toEqual(before.body);
  });

  it('serves other requests while a long advance runs, and refuses a second advance meanwhile', async () => {
    const server = await startServe([]);
    for (let i = 0; i < 20; i++) await createProject(server, `p${i}`);
    const start = (await server.call('GET', '/_sim/clock')).body?.['now_ms'] as number;
    const order: string[] = [];
    const advance = server.call('POST', '/_sim/advance', { by: '7300d' }).then((answer) => {
      order.push('advance');
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const clock = await server.call('GET', '/_sim/clock');
    order.push('clock');
    const second = await server.call('POST', '/_sim/advance', { by: '1d' });
    order.push('second advance');
    expect(clock.status).toBe(200);
    expect(second.status).toBe(409);
    expect(second.body?.['message']).toMatch(/the clock is busy with an advance/);
    expect((await advance).status).toBe(200);
    expect(order).toEqual(['clock', 'second advance', 'advance']);
    const after = (await server.call('GET', '/_sim/clock')).body?.['now_ms'] as number;
    expect(after).toBe(start + 7300 * 86_400_000); // the refused advance moved nothing
  });

  it("answers a reset with the new simulation's clock", async () => {
    const server = await startServe([]);
    const start = (await server.call('GET', '/_sim/clock')).body;
    await server.call('POST', '/_sim/advance', { by: '1h' });
    const reset = await server.call('POST', '/_sim/reset', { seed: 7 });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual(start);
    expect((await server.call('GET', '/_sim/clock')).body).toEqual(start);
  });
});

describe('a state file left damaged', () => {
  // A commit line and its newline go out in one write, before the response: a file that lacks only
  // the last newline was cut after the answer (truncate -s -1, a disk). Its commit line parses and
  // checks as that request's commit, so the request is whole, and kept.
  it('keeps a request whose commit line lost only its newline (truncate -s -1), and adds the newline', async () => {
    const file = stateFile();
    const first = await startServe(['--state-file', file]);
    await createProject(first, 'kept');
    await createProject(first, 'acknowledged');
    await first.kill();
    truncateSync(file, readFileSync(file).length - 1);
    const second = await startServe(['--state-file', file]);
    expect(readFileSync(file).at(-1)).toBe(0x0a); // added on start, before any write
    expect(await projectNames(second)).toEqual(['acknowledged', 'kept']);
    expect(second.stderr()).toMatch(/its last commit line had lost its newline: added it/);
    expect(second.stderr()).not.toMatch(/never acknowledged|cut off/);
    await createProject(second, 'later');
    await second.kill();
    const third = await startServe(['--state-file', file]);
    expect(await projectNames(third)).toEqual(['acknowledged', 'kept', 'later']);
  });

  it('cuts a torn last line of an unfinished request on start, and the next write does not break the file', async () => {
    const file = stateFile();
    const first = await startServe(['--state-file', file]);
    await createProject(first, 'kept');
    await first.kill();
    appendFileSync(file, '{"type":"ProjectCreated","at":17');
    const second = await startServe(['--state-file', file]);
    expect(await projectNames(second)).toEqual(['kept']);
    expect(second.stderr()).toMatch(/warning: .*unfinished request \(its last line torn\)/);
    await createProject(second, 'later');
    await second.kill();
    const third = await startServe(['--state-file', file]);
    expect(await projectNames(third)).toEqual(['kept', 'later']);
  });

  it('starts afresh on a whitespace-only file, and the next write does not break it', async () => {
    const file = stateFile();
    writeFileSync(file, '  \n\n \t\n');
    const first = await startServe(['--state-file', file]);
    await createProject(first, 'fresh');
    await first.kill();
    const second = await startServe(['--state-file', file]);
    expect(await projectNames(second)).toEqual(['fresh']);
  });

  it('keeps whole requests only when the file is cut inside one, and says what it dropped', async () => {
    const file = stateFile();
    const first = await startServe(['--state-file', file]);
    await createProject(first, 'whole');
    const committed = readFileSync(file).length;
    await createProject(first, 'cut');
    await first.kill();
    // Cut the second request's batch after its first event: its project line, but no branch.
    const text = readFileSync(file, 'utf8');
    const firstEventEnd = text.indexOf('\n', committed) + 1;
    truncateSync(file, firstEventEnd);
    const second = await startServe(['--state-file', file]);
    expect(await projectNames(second)).toEqual(['whole']);
    expect(second.stderr()).toMatch(/lines \d+-\d+: the events of an unfinished request/);
    const projects = (await second.call('GET', '/projects')).body?.['projects'] as { id: string }[];
    for (const { id } of projects) {
      expect(
        (await second.call('GET', `/projects/${id}/branches`)).body?.['branches'],
      ).toHaveLength(1);
      expect(
        (await second.call('GET', `/projects/${id}/endpoints`)).body?.['endpoints'],
      ).toHaveLength(1);
    }
  });

  it('refuses a file edited before its last commit, naming the line, and leaves it as it was', async () => {
    const file = stateFile();
    const first = await startServe(['--state-file', file]);
    await createProject(first, 'one');
    await createProject(first, 'two');
    await first.stop();
    const lines = readFileSync(file, 'utf8').split('\n');
    const edited = lines.findIndex((line) => line.includes('"name":"one"'));
    lines[edited] = (lines[edited] as string).replace('"name":"one"', '"name":"uno"');
    writeFileSync(file, lines.join('\n'));
    const damaged = readFileSync(file);
    const refused = await runServeToExit(['--state-file', file]);
    expect(refused.code).toBe(3);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/line \d+: .*checksum differs.*edited or damaged/);
    expect(readFileSync(file).equals(damaged)).toBe(true);
  });

  it('streams the snapshot in chunks, never as one whole-log string (the large-file test takes it past 4.6 M events)', async () => {
    const server = await startServe([]);
    for (let i = 0; i < 5; i++) await createProject(server, `p${i}`);
    await server.call('POST', '/_sim/advance', { by: '365d' });
    const response = await fetch(`${server.base}/_sim/snapshot`, {
      headers: { authorization: `Bearer ${SERVE_KEY}` },
    });
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('content-length')).toBeNull();
    const lines = (await response.text()).trimEnd().split('\n');
    const events = lines.map((line) => JSON.parse(line) as { seq: number; type: string });
    expect(events[0]?.type).toBe('SimulationStarted');
    expect(events.every((event, i) => event.seq === i)).toBe(true);
    expect(events.length).toBeGreaterThan(1_000);
  });
});

describe('control calls', () => {
  // A reset takes a JSON object or no body at all; `null` is not "no body" (it wiped everything).
  it('refuses a malformed reset with 400 and keeps every project and the file', async () => {
    const file = stateFile();
    const server = await startServe(['--state-file', file]);
    await createProject(server, 'precious');
    const before = readFileSync(file);
    const bodies = [[], 'oops', { seeed: 5 }, { seed: 5, extra: true }, 42, null, '"x"'];
    for (const body of bodies) {
      const reset = await server.call('POST', '/_sim/reset', body);
      expect(reset.status, JSON.stringify(body)).toBe(400);
      expect(reset.body).toMatchObject({ code: 'invalid_input', message: expect.any(String) });
    }
    expect(await projectNames(server)).toEqual(['precious']);
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});

describe('one server per state file', () => {
  it('refuses a second server with a one-line error and exit code 4; the first keeps serving', async () => {
    const file = stateFile();
    const first = await startServe(['--state-file', file]);
    await createProject(first, 'first');
    const second = await runServeToExit(['--state-file', file]);
    expect(second.code).toBe(4); // in use: not 3, a damaged file's
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    expect(second.stderr).toMatch(/is in use by process \d+/);
    await createProject(first, 'still');
    expect(await first.stop()).toBe(0);
    const third = await startServe(['--state-file', file]);
    expect(await projectNames(third)).toEqual(['first', 'still']);
  });

  it('refuses a second server that reaches the file by a symbolic or a hard link', async () => {
    const file = stateFile();
    const first = await startServe(['--state-file', file]);
    await createProject(first, 'first');
    const elsewhere = mkdtempSync(join(tmpdir(), 'computesim-probe-names-'));
    const symbolic = join(elsewhere, 'symbolic.jsonl');
    const hard = join(elsewhere, 'hard.jsonl');
    symlinkSync(file, symbolic);
    linkSync(file, hard);
    for (const name of [symbolic, hard])
      await expect(startServe(['--state-file', name]), name).rejects.toThrow(
        /^serve exited with 4 before serving: computesim: \S+ is in use .*by process \d+[^\n]*\n$/,
      );
    await createProject(first, 'still');
    expect(await first.stop()).toBe(0);
    const third = await startServe(['--state-file', hard]);
    expect(await projectNames(third)).toEqual(['first', 'still']);
  });

  it('takes over the lock of a server that was killed', async () => {
    const file = stateFile();
    const first = await startServe(['--state-file', file]);
    await first.kill();
    const second = await startServe(['--state-file', file]);
    expect(second.stderr()).toMatch(/took over the lock left by process \d+/);
  });

  // A supervisor restarting a server at once after a SIGKILL: the killed one is a zombie until its
  // parent reaps it (here never, while the test runs), its id still taken.
  it.runIf(HAS_PROC_STATES)(
    'takes over the lock of a server killed and not reaped yet (a zombie), keeping its data',
    async () => {
      const file = stateFile();
      const first = await underNonReapingParent(
        process.execPath,
        [
          '--import',
          'tsx',
          'src/cli/run.ts',
          'serve',
          '--port',
          '0',
          '--api-key',
          SERVE_KEY,
          '--state-file',
          file,
        ],
        root,
      );
      try {
        await pollUntil(
          () => /serving http/.test(first.stdout()),
          () => first.stdout(),
        );
        const base = /serving (http:\/\/\S+)/.exec(first.stdout())?.[1] as string;
        const created = await callJson(fetch, base, SERVE_KEY, 'POST', '/projects', {
          project: { name: 'kept' },
        });
        expect(created.status).toBe(201);
        process.kill(first.pid, 'SIGKILL');
        await untilZombie(first.pid);
        const second = await startServe(['--state-file', file]);
        expect(second.stderr()).toContain(`took over the lock left by process ${first.pid}`);
        expect(processState(first.pid)).toBe('Z'); // taken over while still a zombie
        expect(await projectNames(second)).toEqual(['kept']);
      } finally {
        first.release();
      }
    },
  );
});

describe('the rate limiter', () => {
  it('limits a flood of unknown keys by client address', async () => {
    const server = await startServe(['--rate-limit']);
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const response = await fetch(`${server.base}/projects`, {
        headers: { authorization: `Bearer random-${i}` },
      });
      statuses.push(response.status);
    }
    // 40 a second per route from one address, whatever key it sends (the run takes well under 1 s
    // per 40 requests on any machine this runs on, so at least the 41st is limited)
    expect(statuses.slice(0, 40).every((status) => status === 401)).toBe(true);
    expect(statuses[40]).toBe(429);
    const known = await server.call('GET', '/projects'); // a real key has a window of its own
    expect(known.status).toBe(200);
  });

  it('spends no memory on refused requests', () => {
    const limiter = new RateLimiter({ perKeyPerMinute: 700, perRoutePerSecond: 40 }, () => 0);
    for (let i = 0; i < 700; i++) expect(limiter.admit('address 1', `GET /r${i}`)).toBeUndefined();
    expect(limiter.windows).toBe(1 + 700); // the caller's minute, and a second per route
    for (let i = 0; i < 5_000; i++) expect(limiter.admit('address 1', `GET /x${i}`)).toBe(60);
    expect(limiter.windows).toBe(1 + 700); // refused: no window made
  });

  it('keeps memory bounded: expired windows are dropped', () => {
    let wall = 0;
    const limiter = new RateLimiter({ perKeyPerMinute: 700, perRoutePerSecond: 40 }, () => wall);
    for (let i = 0; i < 20_000; i++) limiter.admit(`key-${i}`, 'GET /projects');
    expect(limiter.windows).toBe(40_000);
    wall += 61_000;
    limiter.admit('key-late', 'GET /projects');
    expect(limiter.windows).toBe(2);
  });
});
