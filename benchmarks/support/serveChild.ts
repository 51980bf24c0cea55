/**
 * `computesim serve --pg-port` in a child process of its own, as `test/support/serveProcess.ts`
 * starts it for the tests (`node --import tsx src/cli/run.ts serve --port 0 …`), for benchmarks that
 * attack it from outside: free loopback ports for HTTP and Postgres (read back from its first line
 * on stdout), branch data in a temporary folder removed at the end, optionally under a lower limit
 * of open files (`sh -c 'ulimit -n N && exec node …'`, so the child's pid is node's own).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The key the child accepts. */
const KEY = 'hostile-bench-key';

/**
 * Children still running and their data folders: killed and removed when this process exits
 * without having stopped them (a benchmark that threw past its own clean-up).
 */
const leftovers = new Map<ChildProcess, string>();
process.once('exit', () => {
  for (const [child, data] of leftovers) {
    child.kill('SIGKILL');
    rmSync(data, { recursive: true, force: true });
  }
});

/** An HTTP answer: its status and body text. */
export interface HttpAnswer {
  readonly status: number;
  readonly text: string;
}

/** A running serve child. */
export interface ServeChild {
  readonly child: ChildProcess;
  readonly pid: number;
  /** `http://127.0.0.1:PORT` (the API is under `/api/v2`, SQL over HTTP at `/sql`). */
  readonly origin: string;
  readonly httpPort: number;
  readonly pgPort: number;
  /** The API key it accepts. */
  readonly key: string;
  /** Whether it is still running. */
  alive(): boolean;
  /** How it exited (`undefined` while it runs). */
  exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** What it wrote on stderr so far (the last 64 KiB). */
  stderr(): string;
  /** The address of its inspector, when node was started with `--inspect`. */
  inspector(): string | undefined;
  /** One API request (path under `/api/v2`) with the key, over a connection of its own. */
  call(method: string, path: string, body?: unknown, timeoutMs?: number): Promise<HttpAnswer>;
  /** Stops it (SIGTERM, SIGKILL after 10 s) and removes its data folder. */
  stop(): Promise<void>;
}

/** What to start. */
export interface ServeChildOptions {
  /** More `serve` arguments (`--pg-max-open 1`, …). */
  readonly args?: readonly string[];
  /** Options for node itself, before the script (`--inspect=127.0.0.1:0`, …). */
  readonly nodeArgs?: readonly string[];
  /** The soft and hard limit on open files to start it under. */
  readonly openFiles?: number;
  /** How long to wait for it to announce its addresses. */
  readonly startTimeoutMs?: number;
}

/** Quotes `word` for `sh`. */
function shellQuoted(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Starts a serve child at `--clock 600x` with its Postgres front; resolves once it serves. */
export async function startServeChild(options: ServeChildOptions = {}): Promise<ServeChild> {
  const data = mkdtempSync(join(tmpdir(), 'computesim-hostile-'));
  const command = [
    process.execPath,
    ...(options.nodeArgs ?? []),
    '--import',
    'tsx',
    'src/cli/run.ts',
    'serve',
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--api-key',
    KEY,
    '--clock',
    '600x',
    '--pg-port',
    '0',
    '--pg-data',
    data,
    ...(options.args ?? []),
  ];
  const child =
    options.openFiles === undefined
      ? spawn(command[0] as string, command.slice(1), {
          cwd: root,
          stdio: ['ignore', 'pipe', 'pipe'],
        })
      : spawn(
          'sh',
          ['-c', `ulimit -n ${options.openFiles} && exec ${command.map(shellQuoted).join(' ')}`],
          { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
        );
  leftovers.set(child, data);
  let out = '';
  let err = '';
  /** The first 8 KiB of stderr, where node announces its inspector. */
  let errHead = '';
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    }),
  );
  child.stderr?.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString()).slice(-65_536);
    if (errHead.length < 8_192) errHead += chunk.toString();
  });
  const removeData = () => rmSync(data, { recursive: true, force: true });
  const stop = async () => {
    if (exited === undefined) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exit;
      clearTimeout(killer);
    }
    removeData();
    leftovers.delete(child);
  };
  const addresses = await new Promise<{ httpPort: number; pgPort: number }>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`serve did not start in time: ${out}${err}`));
    }, options.startTimeoutMs ?? 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (out.length < 65_536) out += chunk.toString();
      const found =
        /serving http:\/\/127\.0\.0\.1:(\d+)\/api\/v2 .*postgres 127\.0\.0\.1:(\d+)/.exec(out);
      if (found === null) return;
      clearTimeout(timer);
      resolve({ httpPort: Number(found[1]), pgPort: Number(found[2]) });
    });
    void exit.then(() => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${JSON.stringify(exited)}) before serving: ${out}${err}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  const origin = `http://127.0.0.1:${addresses.httpPort}`;
  return {
    child,
    pid: child.pid as number,
    origin,
    ...addresses,
    key: KEY,
    alive: () => exited === undefined,
    exit: () => exited,
    stderr: () => err,
    inspector: () => /Debugger listening on (ws:\/\/\S+)/.exec(errHead)?.[1],
    call: (method, path, body, timeoutMs = 30_000) =>
      httpRequest(addresses.httpPort, method, `/api/v2${path}`, {
        headers: { authorization: `Bearer ${KEY}` },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        timeoutMs,
      }),
    stop,
  };
}

/** What a request sends beside its method and path. */
interface RequestOptions {
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly timeoutMs?: number;
  /** Keep at most this many characters of the body (all are counted). */
  readonly keepChars?: number;
}

/** An answer with the size of its whole body. */
export interface CountedAnswer extends HttpAnswer {
  /** Bytes of the body, all of it (`text` may hold only its start). */
  readonly bytes: number;
}

/**
 * One request to `127.0.0.1:port` over a connection of its own (`node:http`: the path is sent as
 * written, `%2E` and all); rejects on a socket error or after `timeoutMs`.
 */
export function httpRequest(
  port: number,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<CountedAnswer> {
  return new Promise((resolve, reject) => {
    const body = options.body;
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: {
          ...options.headers,
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (incoming) => {
        const keep = options.keepChars ?? 1_000_000;
        let text = '';
        let bytes = 0;
        incoming.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (text.length < keep) text += chunk.toString('utf8', 0, keep - text.length);
        });
        incoming.on('end', () => {
          clearTimeout(timer);
          resolve({ status: incoming.statusCode ?? 0, text, bytes });
        });
        incoming.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
      },
    );
    const timer = setTimeout(() => {
      outgoing.destroy(new Error(`${method} ${path}: no answer in ${options.timeoutMs} ms`));
    }, options.timeoutMs ?? 30_000);
    outgoing.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    outgoing.end(body);
  });
}
