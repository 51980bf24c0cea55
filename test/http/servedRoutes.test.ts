/**
 * The one table of what `serve` answers (`SERVED_ROUTES`): docs/serving.md shows it as it is, and
 * a real server, over its socket and in process, answers each row by the responder the row names
 * and nothing else (a path near a row's goes to the core).
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { pathnameOf, SERVED_ROUTES, servedRouteOf } from '../../src/http/servedRoutes.js';
import { markedTable } from '../support/markedTable.js';
import { KEY, serveOver } from '../support/transports.js';

const serving = readFileSync(new URL('../../docs/serving.md', import.meta.url), 'utf8');

/** Sends an upgrade request to `path` over a raw socket; resolves to the whole answer. */
function upgrade(base: string, path: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(
      `GET ${path} HTTP/1.1\r\nhost: ${hostname}\r\nconnection: Upgrade\r\nupgrade: websocket\r\n` +
        'sec-websocket-version: 13\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
  });
}

describe('the served routes', () => {
  it('are shown in docs/serving.md row for row', () => {
    expect(markedTable(serving, 'served-routes')).toEqual(
      SERVED_ROUTES.map((route) => [`\`${route.path}\``, route.reached, route.methods, route.what]),
    );
  });

  it('send a path to its first matching row, and a near miss to the core', () => {
    expect(servedRouteOf('/sql', 'request')?.responder.by).toBe('sql');
    expect(servedRouteOf('/sql/', 'request')?.responder.by).toBe('core');
    expect(servedRouteOf('/v2', 'request')?.responder.by).toBe('core');
    expect(servedRouteOf('/v2', 'upgrade')?.responder.by).toBe('websocket');
    expect(servedRouteOf('/sql', 'upgrade')).toBeUndefined();
    expect(servedRouteOf('/api/v2/_sim/view', 'request')?.responder).toMatchObject({
      by: 'dashboard',
      answer: 'view',
    });
    expect(servedRouteOf('/api/v2/_sim/views', 'request')?.responder.by).toBe('core');
    expect(servedRouteOf(pathnameOf('http://h/x/../sql?y=1'), 'request')?.responder.by).toBe(
      'core',
    );
    expect(servedRouteOf(pathnameOf('http://h/sql?y=1'), 'request')?.responder.by).toBe('sql');
  });

  it('are answered over the socket by the responder each row names', async () => {
    const { base, send } = await serveOver('socket');
    const origin = base.replace(/\/api\/v2$/, '');
    const auth = { authorization: `Bearer ${KEY}` };

    // SQL over HTTP: its own answers, not the core's (a CORS preflight; no front: says so).
    const preflight = await send(`${origin}/sql`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const noFront = await send(`${origin}/sql?x=1`, { method: 'POST', body: '{}' });
    expect(noFront.status).toBe(404);
    expect(((await noFront.json()) as { message: string }).message).toMatch(/--pg-port/);

    // The dashboard's rows: the page with no key, its data with one.
    const page = await send(`${origin}/`);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    await page.text();
    expect((await send(`${base}/_sim/view`)).status).toBe(401);
    const view = await send(`${base}/_sim/view`, { headers: auth });
    expect(await view.json()).toHaveProperty('mode', 'manual');
    const posted = await send(`${base}/_sim/view`, { method: 'POST', headers: auth, body: '{}' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe(
      servedRouteOf('/api/v2/_sim/view', 'request')?.methods,
    );
    await posted.text();
    const report = await send(`${base}/_sim/report`, { method: 'HEAD', headers: auth });
    expect(report.headers.get('content-disposition')).toMatch(/attachment/);
    const abort = new AbortController();
    const events = await send(`${base}/_sim/events`, { headers: auth, signal: abort.signal });
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
    abort.abort();

    // The core: the API, a control route, and a JSON 404 for a path no row names.
    const projects = await send(`${base}/projects`, { headers: auth });
    expect(await projects.json()).toHaveProperty('projects', []);
    const clock = await send(`${base}/_sim/clock`, { headers: auth });
    expect(await clock.json()).toMatchObject({ mode: 'manual' });
    const elsewhere = await send(`${origin}/elsewhere`, { headers: auth });
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toHaveProperty('code');
    // (fetch resolves dot segments before sending: `/x/../sql` is tested on pathnameOf above.)
    for (const near of ['//sql', '/sql/']) {
      const answer = await send(`${origin}${near}`, { method: 'POST', body: '{}' });
      expect(answer.status, near).toBe(404);
      expect(((await answer.json()) as { message: string }).message, near).toMatch(
        `no route for POST ${near} (`,
      );
    }

    // Upgrades: `/v2` reaches the WebSocket responder (no front: it says so), any other path none.
    expect(await upgrade(base, '/v2?address=ep-x.localtest.me')).toMatch(
      /^HTTP\/1\.1 404[\s\S]*Postgres over WebSocket needs serve --pg-port$/,
    );
    expect(await upgrade(base, '/api/v2/projects')).toMatch(/^HTTP\/1\.1 404[\s\S]*no such route$/);
  });

  it('are answered in process by the same table: the dashboard, then the core', async () => {
    const { server } = await serveOver('fetch');
    const page = await server.fetch(new Request('http://computesim.test/'));
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const view = await server.fetch(
      new Request('http://computesim.test/api/v2/_sim/view', {
        headers: { authorization: `Bearer ${KEY}` },
      }),
    );
    expect(await view.json()).toHaveProperty('mode', 'manual');
    const projects = await server.fetch(
      new Request('http://computesim.test/api/v2/projects', {
        headers: { authorization: `Bearer ${KEY}` },
      }),
    );
    expect(await projects.json()).toHaveProperty('projects', []);
  });
});
