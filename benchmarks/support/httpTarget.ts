/**
 * A server for the HTTP benchmark, started in its own process so client and server each have a
 * core: `bare` answers fixed JSON bodies (the floor: node:http alone; a POST and a DELETE get
 * replies the size of serve's), `sim` is computesim serve with a project of 1,000 operations.
 * Prints `READY port projectId operationId`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Simulation } from '../../src/index.js';
import { SimServer } from '../../src/http/simServer.js';
import { BENCH_KEY } from './sendRequest.js';

const kind = process.argv[2];
if (kind === 'bare') {
  const body = JSON.stringify({
    operation: {
      id: '0d7e4a3c-5f0a-4a8e-9a61-7c9d7f3d2b11',
      action: 'start_compute',
      status: 'finished',
    },
  });
  // Replies the size of serve's to a project create and delete, for the create/delete floor.
  const created = sized({ project: { id: 'bare-project' } }, 3_300);
  const deleted = sized({ project: { id: 'bare-project' } }, 720);
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const [status, text] =
        request.method === 'POST'
          ? [201, created]
          : request.method === 'DELETE'
            ? [200, deleted]
            : [200, body];
      response
        .writeHead(status, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        })
        .end(text);
    });
  });
  server.keepAliveTimeout = 5_000;
  server.listen(0, '127.0.0.1', () =>
    console.log(`READY ${(server.address() as AddressInfo).port} - -`),
  );
} else if (kind === 'sim') {
  const sim = new Simulation({ seed: 1 });
  const created = sim.request('POST', '/projects', { project: {} });
  const projectId: string = created.body.project.id;
  const endpointId: string = created.body.endpoints[0].id;
  const settle = () =>
    sim.runUntil((s) => Object.keys(s.projects[projectId]!.pendingOperations).length === 0);
  settle();
  while (Object.keys(sim.state.projects[projectId]!.operations).length < 1_000) {
    sim.request('POST', `/projects/${projectId}/endpoints/${endpointId}/restart`);
    settle();
  }
  const server = new SimServer(sim, {
    keys: [{ key: BENCH_KEY, kind: 'personal' }],
    clock: { name: 'manual', rate: 0 },
  });
  const base = await server.listen(0);
  console.log(`READY ${new URL(base).port} ${projectId} ${created.body.operations[0].id}`);
} else {
  console.error('httpTarget: bare or sim');
  process.exit(2);
}

/** `value` as JSON padded to about `bytes`. */
function sized(value: object, bytes: number): string {
  const bare = JSON.stringify({ ...value, padding: '' });
  return JSON.stringify({ ...value, padding: 'x'.repeat(Math.max(0, bytes - bare.length)) });
}
