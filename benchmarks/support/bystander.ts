/**
 * A bystander: one `pg` client of a project nobody attacks, running `select 1` in a loop on a worker
 * thread of its own (so the benchmark's own work, writing floods to hostile sockets, does not delay
 * it), recording each statement's latency; beside it, when asked, an HTTP loop reading one page of
 * the API (which only the server's main thread answers: no database is involved, so its latency
 * tells a blocked main thread from a busy database thread or a busy core). `take()` hands over the
 * latencies since the last take; a request still unanswered then counts with the time it has
 * waited so far, so a server that stopped answering shows as a long sample, not as none. A client
 * the server drops is replaced.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** One loop's latencies since the last take. */
export interface LoopSamples {
  /** As the loop saw them: one request at a time, so a stall of the server is one sample. */
  readonly latenciesMs: number[];
  /**
   * The same, corrected for coordinated omission: a request that took L ms, where one was due
   * every `everyMs`, also stands for those that would have been sent while it waited (L − everyMs,
   * L − 2 × everyMs, … ms), as a client sending on a schedule would have seen them.
   */
  readonly correctedMs: number[];
  /** Requests or connects that failed (the `pg` client is replaced after each). */
  readonly errors: string[];
}

/** What both loops saw since the last take. */
export interface BystanderSamples {
  /** `select 1` on the bystander's project. */
  readonly sql: LoopSamples;
  /** `GET /api/v2/projects?limit=1` (empty when no API loop runs). */
  readonly api: LoopSamples;
}

/** A running bystander. */
export interface Bystander {
  take(): Promise<BystanderSamples>;
  stop(): Promise<void>;
}

/** The loops, as the source of an eval'd CommonJS worker (no loader to inherit). */
const LOOPS = `
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const http = require('node:http');
const pg = require(workerData.pgPath);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let stopping = false;
function loop(name, setUp, one, tearDown) {
  const state = { latencies: [], errors: [], inFlightSince: undefined };
  state.done = (async () => {
    let count = 0;
    let context;
    while (!stopping && count < workerData.maxRequests) {
      try {
        if (context === undefined) context = await setUp(state);
        state.inFlightSince = performance.now();
        await one(context);
        state.latencies.push(performance.now() - state.inFlightSince);
        count += 1;
      } catch (error) {
        state.errors.push((error.code || '') + ' ' + error.message);
        if (context !== undefined) tearDown(context);
        context = undefined;
        await pause(200);
      }
      state.inFlightSince = undefined;
      await pause(workerData.everyMs);
    }
    if (context !== undefined) await tearDown(context);
  })();
  return state;
}
const loops = { sql: loop(
  'sql',
  async (state) => {
    const client = new pg.Client({ ...workerData.config, connectionTimeoutMillis: 30000 });
    client.on('error', (error) =>
      state.errors.push('dropped: ' + (error.code || '') + ' ' + error.message));
    await client.connect();
    return client;
  },
  (client) => client.query('select 1'),
  (client) => client.end().catch(() => undefined),
) };
if (workerData.api !== undefined) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = () => new Promise((resolve, reject) => {
    const request = http.get({
      agent, host: '127.0.0.1', port: workerData.api.port, path: '/api/v2/projects?limit=1',
      headers: { authorization: 'Bearer ' + workerData.api.key },
    }, (response) => {
      response.resume();
      response.on('end', () => response.statusCode === 200
        ? resolve() : reject(new Error('status ' + response.statusCode)));
    });
    request.setTimeout(60000, () => request.destroy(new Error('no answer in 60 s')));
    request.on('error', reject);
  });
  loops.api = loop('api', async () => agent, get, () => undefined);
}
function takeOf(state) {
  if (state === undefined) return { latenciesMs: [], errors: [] };
  const taken = { latenciesMs: state.latencies, errors: state.errors };
  if (state.inFlightSince !== undefined)
    taken.latenciesMs.push(performance.now() - state.inFlightSince);
  state.latencies = [];
  state.errors = [];
  return taken;
}
parentPort.on('message', (message) => {
  if (message === 'take') {
    parentPort.postMessage({ sql: takeOf(loops.sql), api: takeOf(loops.api) });
  } else if (message === 'stop') {
    stopping = true;
    Promise.all(Object.values(loops).map((state) => state.done)).then(() =>
      parentPort.postMessage('stopped'));
  }
});
`;

/** The `pg` client settings of the bystander (`options` names the compute: `endpoint=<id>`). */
export type BystanderConfig = {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly database: string;
  readonly options: string;
};

/** Where the API loop reads (none when not given). */
export interface BystanderApi {
  readonly port: number;
  readonly key: string;
}

/**
 * Starts the loops: a request every `everyMs` (after the previous one's answer), at most
 * `maxRequests` each; resolves once a first statement was answered (or 30 s passed).
 */
export async function startBystander(
  config: BystanderConfig,
  api?: BystanderApi,
  everyMs = 10,
  maxRequests = 200_000,
): Promise<Bystander> {
  const pgPath = createRequire(import.meta.url).resolve('pg');
  const worker = new Worker(LOOPS, {
    eval: true,
    workerData: { pgPath, config, api, everyMs, maxRequests },
    execArgv: [],
  });
  const replies: ((value: unknown) => void)[] = [];
  let stopped: (() => void) | undefined;
  worker.on('message', (message: unknown) => {
    if (message === 'stopped') stopped?.();
    else replies.shift()?.(message);
  });
  worker.on('error', (error) => console.error(`bystander worker failed: ${error.message}`));
  // A worker that is gone answers every take (pending or later) with nothing.
  let gone = false;
  const nothing = { latenciesMs: [], errors: ['the bystander worker is gone'] };
  worker.once('exit', () => {
    gone = true;
    for (const reply of replies.splice(0)) reply({ sql: nothing, api: nothing });
  });
  const corrected = (taken: Omit<LoopSamples, 'correctedMs'>): LoopSamples => {
    const correctedMs: number[] = [];
    for (const latency of taken.latenciesMs) {
      correctedMs.push(latency);
      for (let missed = latency - everyMs; missed > everyMs; missed -= everyMs)
        correctedMs.push(missed);
    }
    return { ...taken, correctedMs };
  };
  const take = () =>
    new Promise<BystanderSamples>((resolve) => {
      const reply = (message: unknown) => {
        const taken = message as Record<'sql' | 'api', Omit<LoopSamples, 'correctedMs'>>;
        resolve({ sql: corrected(taken.sql), api: corrected(taken.api) });
      };
      if (gone) return reply({ sql: nothing, api: nothing });
      replies.push(reply);
      worker.postMessage('take');
    });
  for (let i = 0; i < 300; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    if ((await take()).sql.latenciesMs.length > 0) break;
  }
  return {
    take,
    stop: async () => {
      const done = new Promise<void>((resolve) => (stopped = resolve));
      worker.postMessage('stop');
      const timer = setTimeout(() => void worker.terminate(), 5_000);
      await Promise.race([done, new Promise((resolve) => worker.once('exit', resolve))]);
      clearTimeout(timer);
      await worker.terminate();
    },
  };
}
