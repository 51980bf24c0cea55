/**
 * A client's start on the front, as the real proxy runs it: TLS on request with the compute named by
 * SNI, SCRAM-SHA-256 by default and SCRAM-SHA-256-PLUS (channel binding) over TLS, the plain
 * `options=endpoint%3D…` URI as before; the parameters announced are the engine's own; a GSS
 * encryption request is declined; bytes that break the protocol cost one log line and a FATAL, and
 * the front goes on serving.
 */
import type { EventEmitter } from 'node:events';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgServe, type PgServe } from '../support/pgServe.js';

type Project = Awaited<ReturnType<PgServe['project']>>;

/**
 * Sends `bytes` on a new connection; resolves to what the front answered before it closed, or,
 * with `firstOnly`, to its first answer (the connection is then closed by the test).
 */
function exchange(port: number, bytes: Buffer, firstOnly = false): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const received: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      if (firstOnly) socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(received)));
  });
}

/** The SQLSTATE of the first ErrorResponse in `reply`, if any. */
function errorCode(reply: Buffer): string | undefined {
  if (reply[0] !== 0x45) return undefined;
  const fields = reply.subarray(5).toString('utf8').split('\0');
  return fields.find((field) => field.startsWith('C'))?.slice(1);
}

describe('the start of a client', () => {
  let serve: PgServe;
  let project: Project;
  let host: string;
  let password: string;
  const logged: string[] = [];

  beforeAll(async () => {
    serve = await startPgServe({ onLog: (line) => logged.push(line) });
    project = await serve.project('handshake');
    await serve.advance('10s');
    const endpoint = await serve.call(
      'GET',
      `/projects/${project.id}/endpoints/${project.endpointId}`,
    );
    host = endpoint.body['endpoint'].host as string;
    password = decodeURIComponent(new URL(project.uri).password);
  });
  afterAll(async () => {
    await serve.stop();
  });

  /** The owner's client over TLS, the compute named by SNI, with `extra` settings. */
  const overTls = (extra: pg.ClientConfig = {}): pg.ClientConfig => ({
    host: '127.0.0.1',
    port: serve.postgres.port,
    user: 'neondb_owner',
    database: 'neondb',
    password,
    ssl: { rejectUnauthorized: false, servername: host },
    ...extra,
  });

  it('takes the compute from SNI over TLS, and binds SCRAM to the channel', async () => {
    expect(host).toMatch(/^ep-[a-z-]+-\d+\.[a-z0-9-]+\.aws\./);
    const client = new pg.Client(overTls({ enableChannelBinding: true }));
    await client.connect();
    const { rows } = await client.query('select 1 as one');
    expect(rows).toEqual([{ one: 1 }]);
    await client.end();
  });

  it('takes a Postgres 17 client that starts TLS at once (sslnegotiation=direct), ALPN and all', async () => {
    const direct = new pg.Client(
      overTls({ sslnegotiation: 'direct', enableChannelBinding: true } as pg.ClientConfig),
    );
    await direct.connect();
    try {
      const stream = (direct as unknown as { connection: { stream: { alpnProtocol?: unknown } } })
        .connection.stream;
      expect(stream.alpnProtocol).toBe('postgresql');
      expect((await direct.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await direct.end();
    }
  });

  it('refuses a client that starts TLS at once without ALPN postgresql, as Postgres does', async () => {
    const tls = await import('node:tls');
    const socket = tls.connect({
      host: '127.0.0.1',
      port: serve.postgres.port,
      servername: host,
      rejectUnauthorized: false,
    });
    const reply = await new Promise<Buffer>((resolve) => {
      const received: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(Buffer.concat(received)));
    });
    expect(errorCode(reply)).toBe('08P01');
    expect(reply.toString('utf8')).toContain('without ALPN');
  });

  it('refuses a wrong password over SCRAM as the real proxy does (XX000), with TLS or without', async () => {
    const wrong = new pg.Client(overTls({ password: 'not-it' }));
    await expect(wrong.connect()).rejects.toMatchObject({ code: 'XX000' });
    const unknownRole = new pg.Client(project.uri.replace('neondb_owner', 'nobody'));
    await expect(unknownRole.connect()).rejects.toMatchObject({
      code: 'XX000',
      message: "password authentication failed for user 'nobody'",
    });
  });

  it("announces the engine's own server_version and is_superuser", async () => {
    const client = new pg.Client(project.uri);
    const parameters: Record<string, string> = {};
    const connection = (client as unknown as { connection: EventEmitter }).connection;
    connection.on(
      'parameterStatus',
      (message: { parameterName: string; parameterValue: string }) => {
        parameters[message.parameterName] = message.parameterValue;
      },
    );
    await client.connect();
    const shown = await client.query<{ v: string; s: string }>(
      "select current_setting('server_version') as v, current_setting('is_superuser') as s",
    );
    await client.end();
    expect(parameters['server_version']).toBe(shown.rows[0]?.v);
    expect(parameters['is_superuser']).toBe(shown.rows[0]?.s);
  });

  it('refuses bytes sent in the clear behind an SSL request (CVE-2021-23214)', async () => {
    const ssl = Buffer.alloc(8);
    ssl.writeInt32BE(8, 0);
    ssl.writeInt32BE(80_877_103, 4);
    const params = Buffer.from('user\0neondb_owner\0database\0neondb\0\0');
    const startup = Buffer.alloc(8 + params.length);
    startup.writeInt32BE(startup.length, 0);
    startup.writeInt32BE(196_608, 4);
    params.copy(startup, 8);
    const reply = await exchange(serve.postgres.port, Buffer.concat([ssl, startup]));
    expect(errorCode(reply)).toBe('08P01');
    expect(reply.toString('latin1')).toContain('received unencrypted data after SSL request');
  });

  it('declines GSS encryption', async () => {
    const request = Buffer.alloc(8);
    request.writeInt32BE(8, 0);
    request.writeInt32BE(80_877_104, 4);
    const reply = await exchange(serve.postgres.port, request, true);
    expect(reply.toString('latin1')).toBe('N');
  });

  it('logs bytes that break the protocol in one line, answers or closes as Postgres does, and goes on', async () => {
    logged.length = 0;
    // A startup packet of a length it cannot have: Postgres logs it and closes without a word.
    const zeroLength = Buffer.alloc(8); // says it is 0 bytes long
    expect((await exchange(serve.postgres.port, zeroLength)).length).toBe(0);
    const huge = Buffer.alloc(8);
    huge.writeInt32BE(1_000_000, 0);
    expect((await exchange(serve.postgres.port, huge)).length).toBe(0);
    const oldProtocol = Buffer.alloc(8);
    oldProtocol.writeInt32BE(8, 0);
    oldProtocol.writeInt32BE(0x00020000, 4);
    expect(errorCode(await exchange(serve.postgres.port, oldProtocol))).toBe('0A000');
    expect(logged).toHaveLength(3);
    for (const line of logged) expect(line).not.toContain('\n');
    const client = new pg.Client(project.uri);
    await client.connect();
    expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await client.end();
  });
});
