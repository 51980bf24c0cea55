/**
 * A simulation served over HTTP in the test's own process, on a free loopback port, with one key;
 * `call` sends one request with that key and parses the JSON answer. Closed after each test.
 */
import { afterEach } from 'vitest';
import { SimServer, type SimServerOptions } from '../../src/http/simServer.js';
import { Simulation } from '../../src/index.js';

/** The key every served simulation accepts. */
export const SERVED_KEY = 'test-key';

const servers: SimServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Serves `sim` (default: seed 3) with `options` over the defaults (one key, manual clock). */
export async function serveSim(
  options: Partial<SimServerOptions> = {},
  sim = new Simulation({ seed: 3 }),
) {
  const server = new SimServer(sim, {
    keys: [{ key: SERVED_KEY, kind: 'personal' }],
    clock: { name: 'manual', rate: 0 },
    ...options,
  });
  servers.push(server);
  const base = await server.listen(0);
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${SERVED_KEY}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
    };
  };
  return { server, base, call };
}
