/**
 * The official TypeScript client (@neondatabase/api-client), pointed at `computesim serve`, runs the
 * conformance flows; every response it receives validates against the public v2 schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { SimServer } from '../../src/http/simServer.js';
import {
  projectLifecycleFlow,
  rolesAndDatabasesFlow,
  type OfficialWorld,
} from '../support/officialFlows.js';
import { checkedBySchema, servedWorld } from '../support/officialWorlds.js';

const KEY = 'official-client-key';
let server: SimServer;
let base: string;

beforeAll(async () => {
  server = new SimServer(new Simulation({ seed: 21 }), {
    keys: [{ key: KEY, kind: 'personal' }],
    clock: { name: 'manual', rate: 0 },
  });
  base = await server.listen(0);
});
afterAll(() => server.close());

/** The served world, with every response checked against the schema into `problems`. */
function checkedWorld(problems: string[]): OfficialWorld & { responses: () => number } {
  const world = servedWorld(server, base, KEY);
  return { ...world, responses: checkedBySchema(world.api, base, problems) };
}

describe('the official client against computesim serve', () => {
  it('creates, waits, adds a replica, resizes, restarts, pages operations and deletes', async () => {
    const problems: string[] = [];
    const world = checkedWorld(problems);
    await projectLifecycleFlow(world);
    expect(world.responses()).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  }, 30_000);
});

describe('the official client: roles, databases and connection URIs', () => {
  it('creates a role and a database, reveals and resets the password, builds URIs and cleans up', async () => {
    const problems: string[] = [];
    await rolesAndDatabasesFlow(checkedWorld(problems));
    expect(problems).toEqual([]);
  }, 30_000);
});
