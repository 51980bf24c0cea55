/**
 * How many clients the front takes: a flood of connections that never log in is held to its limits
 * (each one past them told 53300 and closed) while the API and logged-in clients go on, and a
 * client may connect again once the flood is gone; wrong passwords from one address are slowed.
 */
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultClientLimits, openFileLimit } from '../../src/pg/clientLimits.js';
import { LoginThrottle } from '../../src/pg/loginThrottle.js';
import { startPgServe, type PgServe } from '../support/pgServe.js';

/** A connection that sends nothing; resolves once it is open, with what it receives kept. */
async function silent(port: number): Promise<{ socket: net.Socket; received: () => string }> {
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, received: () => Buffer.concat(chunks).toString('latin1') };
}

function closed(socket: net.Socket): Promise<void> {
  return socket.closed
    ? Promise.resolve()
    : new Promise((resolve) => socket.once('close', resolve));
}

describe('the limits on clients', () => {
  let serve: PgServe;
  beforeAll(async () => {
    serve = await startPgServe({
      limits: { maxClients: 6, maxStarting: 4, maxStartingPerAddress: 3 },
    });
  });
  afterAll(async () => {
    await serve.stop();
  });

  it('refuses connections past the limit of those logging in from one address, and takes them again after', async () => {
    const project = await serve.project('flooded');
    const client = new pg.Client(project.uri);
    await serve.connect(client);
    const flood = [];
    for (let i = 0; i < 3; i += 1) flood.push(await silent(serve.postgres.port));
    const refused = await silent(serve.postgres.port);
    await closed(refused.socket);
    expect(refused.received()).toContain('C53300');
    expect(refused.received()).toContain('sorry, too many clients already');
    // The API and the client already in go on.
    expect((await serve.call('GET', `/projects/${project.id}`)).status).toBe(200);
    expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    for (const { socket } of flood) socket.destroy();
    await expect.poll(() => serve.server.postgres?.clientCount).toBe(1);
    const again = new pg.Client(project.uri);
    await serve.connect(again);
    expect((await again.query('select 2 as two')).rows).toEqual([{ two: 2 }]);
    await again.end();
    await client.end();
  });

  it('refuses clients past the limit of all clients, logged in or not', async () => {
    await expect.poll(() => serve.server.postgres?.clientCount).toBe(0); // the last test's are gone
    const project = await serve.project('full');
    const clients: pg.Client[] = [];
    for (let i = 0; i < 6; i += 1) {
      const client = new pg.Client(project.uri);
      await serve.connect(client);
      clients.push(client);
    }
    const over = new pg.Client(project.uri);
    await expect(over.connect()).rejects.toMatchObject({ code: '53300' });
    await clients.pop()?.end();
    await expect.poll(() => serve.server.postgres?.clientCount).toBe(5);
    const after = new pg.Client(project.uri);
    await serve.connect(after);
    await after.end();
    await Promise.all(clients.map((client) => client.end()));
  });
});

describe('wrong passwords through the front', () => {
  it('are answered at once at first, then each after the throttle’s delay', async () => {
    const serve = await startPgServe();
    try {
      const project = await serve.project('guessed');
      const wrong = project.uri.replace(/:[^:@/]+@/, ':not-the-password@');
      const attempt = async () => {
        const started = performance.now();
        const client = new pg.Client(wrong);
        await expect(client.connect()).rejects.toMatchObject({ code: 'XX000' });
        return performance.now() - started;
      };
      for (let i = 0; i < 10; i += 1) await attempt(); // the free ones
      // The 11th and 12th wait 200 and 400 ms at least before their refusal (a lower bound only).
      expect(await attempt()).toBeGreaterThanOrEqual(190);
      expect(await attempt()).toBeGreaterThanOrEqual(390);
    } finally {
      await serve.stop();
    }
  });
});

describe('the default limits', () => {
  it('leave room for the rest of the process under a small open-file limit', () => {
    expect(defaultClientLimits(1024)).toEqual({
      maxClients: 768,
      maxStarting: 192,
      maxStartingPerAddress: 96,
    });
    expect(defaultClientLimits(Infinity).maxClients).toBe(10_000);
    expect(defaultClientLimits(100).maxClients).toBe(16);
  });

  it("read the process's soft open-file limit", () => {
    const limits = [
      'Limit                     Soft Limit           Hard Limit           Units     ',
      'Max open files            1024                 524288               files     ',
    ].join('\n');
    expect(openFileLimit(() => limits)).toBe(1024);
    expect(openFileLimit(() => limits.replace('1024 ', 'unlimited '))).toBe(Infinity);
    expect(openFileLimit(() => '')).toBe(Infinity);
  });
});

describe('the login throttle', () => {
  it('lets a few failures go at once, then answers each later, and forgets an address that logs in', () => {
    let now = 0;
    const throttle = new LoginThrottle(() => now);
    const delays = Array.from({ length: 40 }, () => throttle.failed('10.0.0.1'));
    expect(delays.slice(0, 10)).toEqual(Array(10).fill(0));
    expect(delays[10]).toBeGreaterThan(0);
    expect(Math.max(...delays)).toBe(3_000);
    expect([...delays].sort((a, b) => a - b)).toEqual(delays); // never shrinks while they go on
    expect(throttle.failed('10.0.0.2')).toBe(0); // another address is not slowed
    now += 61_000;
    expect(throttle.failed('10.0.0.1')).toBe(0); // a minute later they are forgotten
    for (let i = 0; i < 20; i += 1) throttle.failed('10.0.0.3');
    throttle.succeeded('10.0.0.3');
    expect(throttle.failed('10.0.0.3')).toBe(0);
  });
});
