/**
 * The program of a database thread: one embedded Postgres (PGlite) on one data directory, run off
 * the server's main thread so that a long statement holds up only the clients of its database. It
 * opens the directory and says so, then takes requests one at a time: raw protocol messages, whose
 * reply goes back in chunks as the backend writes them (the thread waits while more than its bound
 * of bytes is still unsent to the client), and close.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { errorText } from '../core/errorText.js';
import { openNamed } from './namedDatabase.js';

/** What the thread is started with. */
export interface DatabaseThreadData {
  /** The data directory. */
  readonly dir: string;
  /** The name its database is opened under (renamed to it first if need be; none: as it is). */
  readonly database?: string;
  /** One 32-bit counter: reply bytes sent to the main thread and not yet written to the client. */
  readonly unsent: SharedArrayBuffer;
  /** Above this many unsent bytes the backend waits (a client reading slowly holds it back). */
  readonly maxUnsent: number;
}

/** A request to the thread. */
export type DatabaseRequest =
  { readonly kind: 'exec'; readonly message: Uint8Array } | { readonly kind: 'close' };

/** What the thread says: it is open, a chunk of a reply, a request done, or a failure. */
export type DatabaseReply =
  | { readonly kind: 'ready'; readonly parameters: Readonly<Record<string, string>> }
  | { readonly kind: 'chunk'; readonly data: Uint8Array }
  | { readonly kind: 'done' }
  | { readonly kind: 'failed'; readonly message: string };

/**
 * The CopyFail after every run: an embedded Postgres cannot wait for COPY data, so a COPY FROM
 * STDIN that nothing caught before fails (an error the client reads) instead of stopping the
 * engine; outside COPY the backend ignores it.
 */
const COPY_GUARD = (() => {
  const reason = Buffer.from('COPY data must follow the statement in the same exchange\0', 'utf8');
  const message = Buffer.alloc(5 + reason.length);
  message.write('f', 0, 'latin1');
  message.writeUInt32BE(4 + reason.length, 1);
  reason.copy(message, 5);
  return message;
})();

/** How long one wait for the client to catch up lasts before the counter is read again. */
const WAIT_MS = 100;

async function serve(): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error('databaseWorker runs as a worker thread');
  const data = workerData as DatabaseThreadData;
  const unsent = new Int32Array(data.unsent);
  const say = (reply: DatabaseReply, transfer: ArrayBuffer[] = []) =>
    port.postMessage(reply, transfer);
  let db: PGlite;
  try {
    db = await openNamed(data.dir, data.database);
  } catch (error) {
    say({ kind: 'failed', message: errorText(error) });
    return;
  }
  const send = (chunk: Uint8Array) => {
    // The backend reuses its buffer: the chunk is copied before it goes.
    const copy = chunk.slice();
    Atomics.add(unsent, 0, copy.byteLength);
    say({ kind: 'chunk', data: copy }, [copy.buffer]);
    for (let now = Atomics.load(unsent, 0); now > data.maxUnsent; now = Atomics.load(unsent, 0))
      Atomics.wait(unsent, 0, now, WAIT_MS);
  };
  let queue = Promise.resolve();
  port.on('message', (request: DatabaseRequest) => {
    queue = queue.then(async () => {
      try {
        if (request.kind === 'close') {
          await db.close();
          say({ kind: 'done' });
          port.close();
          return;
        }
        await db.execProtocolRawStream(Buffer.concat([request.message, COPY_GUARD]), {
          onRawData: send,
        });
        say({ kind: 'done' });
      } catch (error) {
        // SQL errors come back in the reply: a throw means the engine itself stopped (it exited,
        // say). Nothing more can run on it: the thread ends, and the next client reopens the data.
        say({ kind: 'failed', message: errorText(error) });
        if (request.kind === 'exec') process.exit(1);
      }
    });
  });
  say({ kind: 'ready', parameters: await reported(db) });
}

/** The parameters a Postgres server reports to each client at its start, as this engine has them. */
const REPORTED = [
  'server_version',
  'server_encoding',
  'client_encoding',
  'DateStyle',
  'IntervalStyle',
  'TimeZone',
  'integer_datetimes',
  'standard_conforming_strings',
  'is_superuser',
];

async function reported(db: PGlite): Promise<Record<string, string>> {
  const names = REPORTED.map((name) => `'${name}'`).join(', ');
  const result = await db.query<{ name: string; value: string }>(
    `select name, current_setting(name) as value from unnest(array[${names}]) as name`,
  );
  return Object.fromEntries(result.rows.map((row) => [row.name, row.value]));
}

await serve();
