/**
 * The worlds the official client's flows run in: `computesim serve` over a socket (time moved by its
 * control routes) and a simulation in process (the testing toolkit's axios adapter, time moved by
 * `advance` and `runUntilIdle`). Each records what the client sent and what it was answered.
 */
import { createApiClient, type Api } from '@neondatabase/api-client';
import { Router } from '../../src/api/router.js';
import { ROUTES } from '../../src/api/routeTable.js';
import type { SimServer } from '../../src/http/simServer.js';
import type { Simulation } from '../../src/index.js';
import { createAxiosAdapter } from '../../src/testing/axiosAdapter.js';
import { ClientEdge } from '../../src/testing/clientEdge.js';
import type { OfficialWorld } from './officialFlows.js';
import { schemaProblems } from './openApiValidator.js';

const router = new Router(ROUTES);

/** One request of a flow and its answer, as the client saw them. */
export interface Exchange {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly status: number;
  readonly answer: unknown;
}

/** A world over `server` at `base` (its `/api/v2` URL), with `key`. */
export function servedWorld(server: SimServer, base: string, key: string): OfficialWorld {
  const control = (path: string, body: object) =>
    fetch(`${base}/_sim/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  return {
    api: createApiClient({ apiKey: key, baseURL: base }),
    advance: (by) => control('advance', { by }),
    settle: () => control('run_until_idle', {}),
    state: () => server.sim.state,
  };
}

/** A world over `sim` in process, with `key` (which `sim` must accept). */
export function inProcessWorld(sim: Simulation, key: string): OfficialWorld {
  const adapter = createAxiosAdapter(new ClientEdge(sim));
  return {
    api: createApiClient({
      apiKey: key,
      baseURL: 'http://computesim.local/api/v2',
      adapter: adapter as never,
    }),
    advance: (by) => Promise.resolve(sim.advance(by)),
    settle: () => Promise.resolve(sim.runUntilIdle()),
    state: () => sim.state,
  };
}

/** Records every exchange of `world`'s client, errors included, into `into`. */
export function recording(world: OfficialWorld, into: Exchange[]): OfficialWorld {
  const record = (response: {
    config: { method?: string; url?: string; data?: unknown };
    status: number;
    data: unknown;
  }) =>
    into.push({
      method: (response.config.method ?? 'get').toUpperCase(),
      path: new URL(response.config.url ?? '', 'http://any/').pathname.replace(/^.*\/api\/v2/, ''),
      body: typeof response.config.data === 'string' ? JSON.parse(response.config.data) : undefined,
      status: response.status,
      answer: response.data,
    });
  world.api.instance.interceptors.response.use(
    (response) => {
      record(response);
      return response;
    },
    (error: { response?: Parameters<typeof record>[0] }) => {
      if (error.response !== undefined) record(error.response);
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    },
  );
  return world;
}

/**
 * Checks every response `api` receives from `base` against the public schema, adding what does not
 * validate to `problems`; returns a count of the responses seen so far.
 */
export function checkedBySchema(api: Api<unknown>, base: string, problems: string[]): () => number {
  let responses = 0;
  api.instance.interceptors.response.use((response) => {
    responses++;
    const method = (response.config.method ?? 'get').toUpperCase();
    const path = new URL(response.config.url ?? '', `${base}/`).pathname.replace('/api/v2', '');
    const match = router.match(method, path);
    if (!match.ok) problems.push(`no route for ${method} ${path}`);
    else
      problems.push(
        ...schemaProblems(method, match.value.route.pattern, response.status, response.data).map(
          (p) => `${method} ${path} ${response.status}: ${p}`,
        ),
      );
    return response;
  });
  return () => responses;
}
