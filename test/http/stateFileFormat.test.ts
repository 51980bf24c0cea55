/**
 * The state file format as docs/durability.md describes it: the documented example is what a
 * served simulation writes, every commit line counts the events so far and carries the CRC-32 of
 * its request's lines, and any plain log (a snapshot) round-trips through a state file.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { LogFile, STATE_FILE_FIRST_LINE } from '../../src/logfiles/logFile.js';
import { SimServer } from '../../src/http/simServer.js';
import { StateFile } from '../../src/http/stateFile.js';
import { Simulation } from '../../src/index.js';

const servers: SimServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const newPath = () => join(mkdtempSync(join(tmpdir(), 'computesim-format-')), 'state.jsonl');

/** Serves `sim` on a state file and makes the given requests through HTTP. */
async function served(path: string, sim: Simulation, requests: [string, string, unknown?][]) {
  const server = new SimServer(sim, {
    keys: [{ key: 'k', kind: 'personal' }],
    clock: { name: 'manual', rate: 0 },
    stateFile: StateFile.open(path),
  });
  servers.push(server);
  const base = await server.listen(0);
  for (const [method, route, body] of requests) {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status).toBeLessThan(300);
  }
  return server;
}

describe('the state file format', () => {
  it('is what docs/durability.md shows', async () => {
    const path = newPath();
    await served(path, new Simulation({ seed: 1 }), [
      ['POST', '/projects', { project: { name: 'demo' } }],
    ]);
    const doc = readFileSync(new URL('../../docs/durability.md', import.meta.url), 'utf8');
    const example =
      /<!-- state-file:start -->\s*```text\n([\s\S]*?)```\s*<!-- state-file:end -->/.exec(doc)?.[1];
    const documented = (example as string).trimEnd().split('\n');
    const written = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(written).toHaveLength(documented.length);
    documented.forEach((line, i) => {
      if (line.includes('…')) {
        const [head = '', tail = ''] = [
          line.slice(0, line.indexOf('…')),
          line.slice(line.lastIndexOf('…') + 1),
        ];
        expect(written[i]?.startsWith(head), `line ${i + 1}`).toBe(true);
        expect(written[i]?.endsWith(tail), `line ${i + 1}`).toBe(true);
      } else expect(written[i], `line ${i + 1}`).toBe(line);
    });
  });

  it('commits each request with the count of events so far and the CRC-32 of its lines', async () => {
    const path = newPath();
    const server = await served(path, new Simulation({ seed: 5 }), [
      ['POST', '/projects', { project: { name: 'a' } }],
      ['POST', '/_sim/advance', { by: '2h' }],
      ['POST', '/projects', { project: { name: 'b' } }],
      ['GET', '/projects'],
    ]);
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    let events = 0;
    let batch = '';
    for (const line of lines.slice(1)) {
      if (!line.startsWith('{"commit":')) {
        events++;
        batch += `${line}\n`;
        continue;
      }
      expect(JSON.parse(line)).toEqual({ commit: events, crc32: crc32(batch) });
      batch = '';
    }
    expect(batch).toBe(''); // nothing after the last commit
    expect(events).toBe(server.sim.log.length);
  });

  it('round-trips any plain log: converted on open, replayed to the same state', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 0, max: 5 }), (seed, n) => {
        const sim = new Simulation({ seed });
        for (let i = 0; i < n; i++) {
          sim.request('POST', '/projects', { project: { name: `p${i}` } });
          sim.advance(`${i * 7 + 1}m`);
        }
        const path = newPath();
        writeFileSync(path, sim.toJSONL());
        const opened = StateFile.open(path);
        opened.close();
        expect(opened.recovery.converted).toBe(true);
        expect(opened.simulation?.state).toEqual(sim.state);
        expect(LogFile.open(path).scan).toMatchObject({
          kind: 'state-file',
          keptEvents: sim.log.length,
        });
        const reopened = StateFile.open(path);
        reopened.close();
        expect(reopened.recovery).toEqual({});
        expect(reopened.simulation?.toJSONL()).toBe(sim.toJSONL());
      }),
      { numRuns: 25 },
    );
  });
});

describe('reading a state file that is not as the server left it', () => {
  const withText = (text: string) => {
    const path = newPath();
    writeFileSync(path, text);
    return path;
  };
  const written = async () => {
    const path = newPath();
    await served(path, new Simulation({ seed: 2 }), [
      ['POST', '/projects', { project: { name: 'a' } }],
    ]);
    await Promise.all(servers.splice(0).map((server) => server.close()));
    return readFileSync(path, 'utf8');
  };

  it('refuses Windows line endings with how to convert them back', async () => {
    const path = withText((await written()).replaceAll('\n', '\r\n'));
    expect(() => LogFile.open(path)).toThrow(/line 1: .*Windows line endings \(CRLF\).*sed -i/);
  });

  it('cuts blank lines after the last commit without calling them a request', async () => {
    const text = await written();
    const scan = LogFile.open(withText(`${text}\n  \n\n`)).scan;
    expect(scan).toMatchObject({ kind: 'state-file', keptBytes: Buffer.byteLength(text) });
    expect(scan.dropped).toMatchObject({ events: 0, reason: 'blank lines after the last commit' });
  });

  it('takes a file holding only its first line for an empty one', () => {
    const scan = LogFile.open(withText(`${STATE_FILE_FIRST_LINE}\n`)).scan;
    expect(scan.kind).toBe('empty');
  });

  it('keeps a last commit line that lacks only its newline, and checks it like any other', async () => {
    const text = await written();
    const whole = text.slice(0, -1);
    expect(LogFile.open(withText(whole)).scan).toEqual({
      kind: 'state-file',
      size: Buffer.byteLength(whole),
      keptBytes: Buffer.byteLength(whole),
      keptEvents: text.split('\n').filter((line) => line.startsWith('{"type"')).length,
      missingNewline: true,
    });
    // Cut inside the commit line: it cannot vouch for its request, which is cut like a torn one.
    const torn = LogFile.open(withText(text.slice(0, -2))).scan;
    expect(torn.missingNewline).toBeUndefined();
    expect(torn.dropped?.reason).toMatch(/unfinished request \(its last line torn\)/);
    expect(torn.dropped?.reason).not.toMatch(/acknowledged/);
    // Whole but not matching its lines: damage, refused as with a newline.
    const edited = whole.replace('"name":"a"', '"name":"b"');
    expect(() => LogFile.open(withText(edited))).toThrow(/checksum differs/);
  });
});
