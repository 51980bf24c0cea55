/**
 * One pipeline, whatever the transport: the official client's conformance flows, run against
 * `computesim serve` over a socket and against a simulation of the same seed in process, send the
 * same requests and get the same answers, byte for byte, errors (and their request ids) included.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SimServer } from '../../src/http/simServer.js';
import { Simulation } from '../../src/index.js';
import { projectLifecycleFlow, rolesAndDatabasesFlow } from '../support/officialFlows.js';
import {
  inProcessWorld,
  recording,
  servedWorld,
  type Exchange,
} from '../support/officialWorlds.js';

const KEY = 'same-answers-key';
const servers: SimServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const FLOWS = [
  ['the project lifecycle', projectLifecycleFlow],
  ['roles, databases and URIs', rolesAndDatabasesFlow],
] as const;

describe.each(FLOWS)('%s, served and in process', (_, flow) => {
  it('gets the same answer to every request', async () => {
    const server = new SimServer(new Simulation({ seed: 21 }), {
      keys: [{ key: KEY, kind: 'personal' }],
      clock: { name: 'manual', rate: 0 },
    });
    servers.push(server);
    const served: Exchange[] = [];
    await flow(recording(servedWorld(server, await server.listen(0), KEY), served));

    const inProcess: Exchange[] = [];
    const sim = new Simulation({ seed: 21, apiKeys: [{ key: KEY, kind: 'personal' }] });
    await flow(recording(inProcessWorld(sim, KEY), inProcess));

    expect(served.length).toBeGreaterThan(10);
    expect(served.some((exchange) => exchange.status >= 400)).toBe(true);
    expect(inProcess).toEqual(served);
  }, 60_000);
});
