/**
 * One suite, two implementations (like hono's `router/common.case.test.ts`): a served simulation
 * reached through the HTTP core's `fetch` in process, or over a socket on a free loopback port.
 * Both go through the same `SimServer` options; only the way a `Request` reaches the core differs.
 */
import { afterEach } from 'vitest';
import { SimServer, type SimServerOptions } from '../../src/http/simServer.js';
import { Simulation } from '../../src/index.js';
import { callJson } from './callJson.js';

/** How a test reaches the server. */
export type Transport = 'fetch' | 'socket';

/** The transports a shared suite runs against (for `describe.each`). */
export const TRANSPORTS: readonly [Transport][] = [['fetch'], ['socket']];

/** The key every served simulation accepts unless told otherwise. */
export const KEY = 'test-key';

const servers: SimServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Serves `sim` (default: seed 3) over `transport`, with `options` over one key and a manual clock. */
export async function serveOver(
  transport: Transport,
  options: Partial<SimServerOptions> = {},
  sim = new Simulation({ seed: 3 }),
) {
  const server = new SimServer(sim, {
    keys: [{ key: KEY, kind: 'personal' }],
    clock: { name: 'manual', rate: 0 },
    ...options,
  });
  servers.push(server);
  const base = transport === 'socket' ? await server.listen(0) : 'http://computesim.test/api/v2';
  /** Sends one request, as `fetch` would. */
  const send = (url: string, init: RequestInit = {}): Promise<Response> =>
    transport === 'socket'
      ? fetch(url, init)
      : server.core.fetch(new Request(url, init), { clientAddress: '127.0.0.1' });
  /** Sends one request with the key and parses the answer (JSON, or text for other types). */
  const call = (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => callJson(send, base, KEY, method, path, body, headers);
  return { server, base, send, call };
}
