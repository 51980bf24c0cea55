/**
 * Clients that break the protocol on purpose, after login and before it: each is told once (a
 * FATAL with the SQLSTATE Postgres uses) and disconnected, its buffers go with it, and the other
 * clients of the front go on as if nothing happened; at a manual clock and at 600x.
 */
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendMessage } from '../../src/pg/backendMessages.js';
import { MESSAGE_LIMITS } from '../../src/pg/clientMessages.js';
import { startPgServe, type PgServe } from '../support/pgServe.js';

type Project = Awaited<ReturnType<PgServe['project']>>;

/** The socket under a connected `pg` client, to write raw bytes on. */
function rawSocketOf(client: pg.Client): net.Socket {
  return (client as unknown as { connection: { stream: net.Socket } }).connection.stream;
}

/** What a connection receives until it closes: its bytes, and the first error's fields. */
function untilClosed(socket: net.Socket): Promise<{ bytes: number; text: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (chunks.length < 16) chunks.push(chunk);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ bytes, text: Buffer.concat(chunks).toString('latin1') }));
  });
}

/** A startup message for `user` on `database` with `options`. */
function startupMessage(parameters: Record<string, string>): Buffer {
  const body = Buffer.from(
    `${Object.entries(parameters)
      .map(([name, value]) => `${name}\0${value}\0`)
      .join('')}\0`,
  );
  const message = Buffer.alloc(8 + body.length);
  message.writeInt32BE(message.length, 0);
  message.writeInt32BE(196_608, 4);
  body.copy(message, 8);
  return message;
}

// At a manual clock, and at 600x, where the wall time a hostile client takes is simulated time
// running: its computes never suspend, so nothing but the client ends its connections.
describe.each(['manual', '600x'])('a hostile client (clock %s)', (clock) => {
  let serve: PgServe;
  let project: Project;
  let bystander: pg.Client;
  const logged: string[] = [];

  /** A connected client of the project, its errors kept (the ones a test expects). */
  async function connected(): Promise<{ client: pg.Client; errors: Error[] }> {
    const client = new pg.Client(project.uri);
    const errors: Error[] = [];
    client.on('error', (error) => errors.push(error));
    await serve.connect(client);
    return { client, errors };
  }

  /**
   * The clients connected once those of earlier tests are gone: the bystander alone (a closed
   * client's socket may take the 2 s grace of `hangUp` to go).
   */
  async function settledClientCount(): Promise<number> {
    await expect.poll(() => serve.server.postgres?.clientCount, { timeout: 10_000 }).toBe(1);
    return 1;
  }

  /** The other client still answers. */
  async function bystanderAnswers(): Promise<void> {
    expect((await bystander.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  }

  beforeAll(async () => {
    serve = await startPgServe({ clock, onLog: (line) => logged.push(line) });
    project = await serve.project('hostile', {
      default_endpoint_settings: { suspend_timeout_seconds: -1 },
    });
    bystander = new pg.Client(project.uri);
    await serve.connect(bystander);
  });
  afterAll(async () => {
    await bystander.end();
    await serve.stop();
  });

  it('is refused COPY … PROGRAM and server files with 42501, and the database goes on', async () => {
    const { client } = await connected();
    await expect(client.query("copy (select 1) to program 'id'")).rejects.toMatchObject({
      code: '42501',
      message: 'permission denied to COPY to or from an external program',
    });
    // Through the extended protocol (a named statement), and inside a DO block's EXECUTE.
    await expect(
      client.query({ name: 'sneaky', text: "copy (select 1) to '/tmp/out'" }),
    ).rejects.toMatchObject({ code: '42501', message: 'permission denied to COPY to a file' });
    await expect(
      client.query("do $$ begin execute 'copy (select 1) to program ''id'''; end $$"),
    ).rejects.toMatchObject({ code: '42501' });
    // In a transaction the refusal fails the transaction, as an error does.
    await client.query('begin');
    await expect(client.query("select pg_read_file('/etc/passwd')")).rejects.toMatchObject({
      code: '42501',
    });
    await expect(client.query('select 1')).rejects.toMatchObject({ code: '25P02' });
    await client.query('rollback');
    expect((await client.query('select 2 as two')).rows).toEqual([{ two: 2 }]);
    await client.end();
    await bystanderAnswers();
  });

  it('is answered a refused batch ended by a Flush with its error now, and ReadyForQuery at its Sync', async () => {
    const { client } = await connected();
    const socket = rawSocketOf(client);
    socket.removeAllListeners('data'); // the test reads the replies itself
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const types = () => {
      const all = Buffer.concat(received);
      const seen: string[] = [];
      for (let at = 0; at + 5 <= all.length; at += 1 + all.readUInt32BE(at + 1))
        seen.push(String.fromCharCode(all[at] as number));
      return seen;
    };
    const parse = backendMessage('P', Buffer.from("\0copy (select 1) to program 'id'\0\0\0"));
    const bind = backendMessage('B', Buffer.from('\0\0\0\0\0\0\0\0'));
    const execute = backendMessage('E', Buffer.from('\0\0\0\0\0'));
    socket.write(Buffer.concat([parse, bind, execute, backendMessage('H')]));
    await expect.poll(types).toEqual(['E']); // the error, and no ReadyForQuery before the Sync
    expect(Buffer.concat(received).toString('latin1')).toContain('C42501');
    // What comes before the Sync is dropped, as a backend drops it after an error.
    socket.write(Buffer.concat([bind, execute, backendMessage('S')]));
    await expect.poll(types).toEqual(['E', 'Z']);
    expect(Buffer.concat(received).at(-1)).toBe('I'.charCodeAt(0));
    socket.write(backendMessage('X'));
    await bystanderAnswers();
  });

  it('that breaks its database some other way is told, and the database is restarted for the rest', async () => {
    const { client } = await connected();
    // Built at run time, the statement cannot be seen: the database stops answering.
    await expect(
      client.query("do $$ begin execute 'co' || 'py (select 1) to program ''id'''; end $$"),
    ).rejects.toMatchObject({ code: '08006', message: expect.stringContaining('restarted') });
    expect(logged.some((line) => line.includes('stopped answering'))).toBe(true);
    await bystanderAnswers();
    const again = await connected();
    expect((await again.client.query('select 3 as three')).rows).toEqual([{ three: 3 }]);
    await again.client.end();
  });

  it('is told once and closed when it sends a message type the protocol does not have', async () => {
    const { client } = await connected();
    const socket = rawSocketOf(client);
    const seen = untilClosed(socket);
    socket.write(Buffer.from([0x01, 0, 0, 0, 5, 0x78]));
    const { bytes, text } = await seen;
    expect(text).toContain('C08P01');
    expect(text).toContain('invalid frontend message type 1');
    expect(bytes).toBeLessThan(1024); // one error, not a stream of them
    await bystanderAnswers();
  });

  it('is told once and closed when it sends a second password message', async () => {
    const { client } = await connected();
    const socket = rawSocketOf(client);
    const seen = untilClosed(socket);
    socket.write(backendMessage('p', Buffer.from('again\0')));
    const { bytes, text } = await seen;
    expect(text).toContain('invalid frontend message type 112');
    expect(bytes).toBeLessThan(1024);
    await bystanderAnswers();
  });

  it('is closed with 54000 when it pipelines more than the bound without a Sync', async () => {
    const { client } = await connected();
    const socket = rawSocketOf(client);
    const seen = untilClosed(socket);
    const text = Buffer.alloc(1024 * 1024, 0x20);
    text.write('select 1', 0);
    const parse = backendMessage(
      'P',
      Buffer.concat([Buffer.from('\0'), text, Buffer.from('\0\0\0')]),
    );
    const count = Math.ceil(MESSAGE_LIMITS.large / parse.length) + 2;
    const write = async () => {
      for (let i = 0; i < count && !socket.destroyed; i += 1)
        if (!socket.write(parse))
          // Closed while waiting to write: a socket that is ending emits no 'drain'.
          await new Promise((resolve) => {
            socket.once('drain', resolve);
            socket.once('close', resolve);
          });
    };
    await Promise.all([write(), seen]);
    expect((await seen).text).toContain('C54000');
    await bystanderAnswers();
  });

  it('is refused at the header of a message over the limit before login, its body unread', async () => {
    const socket = net.connect(serve.postgres.port, '127.0.0.1');
    const seen = untilClosed(socket);
    // In one write, so that the header arrives with the startup: the FATAL must still reach it.
    const huge = Buffer.alloc(5);
    huge.write('p', 0, 'latin1');
    huge.writeUInt32BE(0x3fffffff, 1);
    socket.write(
      Buffer.concat([startupMessage({ user: 'neondb_owner', database: 'neondb' }), huge]),
    );
    const { text } = await seen;
    expect(text).toContain('C08P01');
    expect(text).toContain('invalid message length');
    await bystanderAnswers();
  });

  it('is closed without a word when it sends Terminate in place of a startup packet', async () => {
    const socket = net.connect(serve.postgres.port, '127.0.0.1');
    const seen = untilClosed(socket);
    socket.write(backendMessage('X'));
    expect((await seen).bytes).toBe(0);
    expect(logged.some((line) => line.includes('invalid length of startup packet'))).toBe(true);
  });

  it('that listens and never reads is let go before its notifications fill memory', async () => {
    const before = await settledClientCount();
    const listener = await connected();
    await listener.client.query('listen flood');
    rawSocketOf(listener.client).pause(); // it reads no more
    const { client: sender } = await connected();
    const payload = 'x'.repeat(7_900);
    // 40 MiB of notifications in all: more than the kernel's buffers and the front's bound.
    for (let i = 0; i < 5_400 && serve.server.postgres?.clientCount !== before + 1; i += 1)
      await sender.query(`notify flood, '${payload}'`);
    await expect.poll(() => serve.server.postgres?.clientCount).toBe(before + 1);
    expect((await sender.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await sender.end();
  });

  it('that neither reads nor hangs up after its refusal is cut off, leaving no socket behind', async () => {
    const before = await settledClientCount();
    // allowHalfOpen: it answers the server's FIN with nothing; only the server can end this.
    const socket = net.connect({
      port: serve.postgres.port,
      host: '127.0.0.1',
      allowHalfOpen: true,
    });
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.pause();
    await expect.poll(() => serve.server.postgres?.clientCount).toBe(before + 1);
    socket.write(backendMessage('X')); // no startup: refused, closed without a word
    // The server ends its side; the client never ends its own: the server destroys it after 2 s.
    await expect.poll(() => serve.server.postgres?.clientCount, { timeout: 10_000 }).toBe(before);
    socket.destroy();
  });

  it('that dies with data in flight leaves no socket behind', async () => {
    const before = await settledClientCount();
    const { client } = await connected();
    const socket = rawSocketOf(client);
    // Half a message, then gone without a FIN's goodbye.
    socket.write(Buffer.concat([backendMessage('Q', Buffer.alloc(64 * 1024)).subarray(0, 40_000)]));
    socket.destroy();
    await expect.poll(() => serve.server.postgres?.clientCount).toBe(before);
    await bystanderAnswers();
  });
});
