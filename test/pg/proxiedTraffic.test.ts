/**
 * The proxy's reading of a client's traffic, which decides when its compute has work: a scripted
 * backend answers on a real socket, and the test checks when the traffic says the client is busy
 * and when it rests. It must rest once everything is answered with no transaction open (simple
 * and extended queries, pipelines, errors that skip to the Sync, COPY in both protocols), and not
 * before (an open transaction, a batch not yet synced, a pipeline half answered); COPY data a
 * failed COPY left in flight is no work.
 */
import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { backendMessage, readyForQuery } from '../../src/pg/backendMessages.js';
import type { BackendLink } from '../../src/pg/backendLink.js';
import { ClientMessages } from '../../src/pg/clientMessages.js';
import { ProxiedTraffic } from '../../src/pg/proxiedTraffic.js';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** Two ends of a loopback TCP connection. */
async function socketPair(): Promise<[net.Socket, net.Socket]> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  const near = net.connect(port, '127.0.0.1');
  const far = await accepted;
  server.close();
  closers.push(() => {
    near.destroy();
    far.destroy();
  });
  return [near, far];
}

/** A message the client sends (its type and payload). */
const msg = (type: string, payload = '') => backendMessage(type, Buffer.from(payload, 'latin1'));

/** A client, its front-side traffic, and the backend it is proxied to, played by the test. */
async function proxied() {
  const [app, front] = await socketPair();
  const [link, backend] = await socketPair();
  const said: string[] = [];
  const received: Buffer[] = [];
  backend.on('data', (chunk: Buffer) => received.push(chunk));
  const messages = new ClientMessages();
  const startup = Buffer.alloc(8);
  startup.writeInt32BE(8, 0);
  startup.writeInt32BE(196_608, 4);
  messages.read(startup);
  messages.loggedIn();
  const backendLink: BackendLink = {
    socket: link,
    parameters: {},
    key: { processId: 1, secret: 2 },
    exec: () => Promise.resolve(),
    cancel: () => undefined,
    close: () => link.end(),
  };
  new ProxiedTraffic(front, backendLink, messages, [], {
    busy: () => {
      said.push('busy');
      return true;
    },
    rest: () => said.push('rest'),
    violated: (error) => said.push(`violated ${error.message}`),
    ended: () => said.push('ended'),
  });
  let sent = 0;
  return {
    said,
    /** The client sends `parts`, which the front may keep (a goodbye, a broken message). */
    write: (...parts: Buffer[]) => app.write(Buffer.concat(parts)),
    /** The client sends `parts`; resolves once the backend has them all. */
    send: async (...parts: Buffer[]) => {
      const bytes = Buffer.concat(parts);
      sent += bytes.length;
      app.write(bytes);
      await expect.poll(() => Buffer.concat(received).length).toBe(sent);
    },
    /** The backend answers `parts`; resolves once the client has read them. */
    answer: async (...parts: Buffer[]) => {
      const bytes = Buffer.concat(parts);
      const got: Buffer[] = [];
      const reading = (chunk: Buffer) => got.push(chunk);
      app.on('data', reading);
      backend.write(bytes);
      await expect.poll(() => Buffer.concat(got).length).toBe(bytes.length);
      app.off('data', reading);
    },
  };
}

const complete = (tag: string) => msg('C', `${tag}\0`);
const failed = msg('E', 'SERROR\0C22P02\0Mbad\0\0');
const copyIn = msg('G', '\0\0\0');

it('rests once a simple query is answered, and not while a transaction is open', async () => {
  const p = await proxied();
  await p.send(msg('Q', 'begin\0'));
  await p.answer(complete('BEGIN'), readyForQuery('T'));
  expect(p.said).toEqual(['busy']);
  await p.send(msg('Q', 'commit\0'));
  await p.answer(complete('COMMIT'), readyForQuery('I'));
  expect(p.said).toEqual(['busy', 'rest']);
});

it('waits for every query of a pipeline, and for the Sync of a batch', async () => {
  const p = await proxied();
  await p.send(msg('Q', 'select 1\0'), msg('Q', 'select 2\0'));
  await p.answer(complete('SELECT 1'), readyForQuery('I'));
  expect(p.said).toEqual(['busy']);
  await p.answer(complete('SELECT 1'), readyForQuery('I'));
  expect(p.said).toEqual(['busy', 'rest']);
  await p.send(msg('P', '\0select 3\0\0\0'), msg('B', ''), msg('E', '\0\0\0\0\0'), msg('H'));
  await p.answer(msg('1'), msg('2'), complete('SELECT 1'));
  expect(p.said).toEqual(['busy', 'rest', 'busy']);
  await p.send(msg('S'));
  await p.answer(readyForQuery('I'));
  expect(p.said).toEqual(['busy', 'rest', 'busy', 'rest']);
});

it('rests after an error in a batch, which the backend answers at the Sync', async () => {
  const p = await proxied();
  await p.send(msg('P', '\0select x\0\0\0'), msg('B', ''), msg('E', '\0\0\0\0\0'), msg('S'));
  await p.answer(failed, readyForQuery('I'));
  expect(p.said).toEqual(['busy', 'rest']);
});

it('rests after a COPY by the extended protocol, whose first Sync came during copy-in', async () => {
  const p = await proxied();
  await p.send(
    msg('P', '\0copy t from stdin\0\0\0'),
    msg('B', ''),
    msg('E', '\0\0\0\0\0'),
    msg('S'),
  );
  await p.answer(msg('1'), msg('2'), copyIn);
  await p.send(msg('d', '1\n'), msg('c'), msg('S'));
  await p.answer(complete('COPY 1'), readyForQuery('I'));
  expect(p.said).toEqual(['busy', 'rest']);
});

it('takes the data a failed COPY left in flight for no work', async () => {
  const p = await proxied();
  await p.send(msg('Q', 'copy t from stdin\0'));
  await p.answer(copyIn);
  await p.send(msg('d', '1\n'));
  await p.answer(failed, readyForQuery('I'));
  expect(p.said).toEqual(['busy', 'rest']);
  await p.send(msg('d', '2\n'), msg('c'));
  expect(p.said).toEqual(['busy', 'rest']);
  await p.send(msg('Q', 'select 1\0'));
  await p.answer(complete('SELECT 1'), readyForQuery('I'));
  expect(p.said).toEqual(['busy', 'rest', 'busy', 'rest']);
});

it('ends on a Terminate, and on a message type no client may send', async () => {
  const p = await proxied();
  p.write(msg('X'));
  await expect.poll(() => p.said).toEqual(['ended']);
  const q = await proxied();
  q.write(msg('p', 'password\0'));
  await expect.poll(() => q.said).toEqual(['violated invalid frontend message type 112']);
});
