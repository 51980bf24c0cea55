/**
 * The page's script, as bundled for the page, on a `resync` message: it stops reading (what
 * follows is not taken) and reconnects with the id of the last message it got. Run in a `vm`
 * context whose DOM is a stand-in that takes anything, and whose `fetch` plays the server.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { pageScript } from '../../src/programs/pageScript.js';

/** A DOM node that takes any property, call or assignment (never a thenable). */
function anything(): unknown {
  const store: Record<string | symbol, unknown> = { hidden: false, value: '' };
  return new Proxy(() => undefined, {
    get: (_, key) => {
      if (key in store) return store[key];
      if (key === 'then' || typeof key === 'symbol') return undefined;
      if (key === 'childElementCount') return 0;
      return anything();
    },
    set: (_, key, value) => {
      store[key] = value;
      return true;
    },
    apply: () => anything(),
  });
}

/** A response whose body is `text` and then stays open. */
function openBody(text: string): Response {
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(new TextEncoder().encode(text)),
  });
  return new Response(body, { status: 200 });
}

const FEED = (id: string, text: string) =>
  `id: ${id}\nevent: feed\ndata: ${JSON.stringify([{ kind: 'request', at: 0, type: '200', text }])}\n\n`;

describe('the dashboard script', () => {
  it('reconnects from its last id on resync, taking nothing after it', async () => {
    const asked: (string | undefined)[] = [];
    const fetch = (url: string, init: { headers?: Record<string, string> } = {}) => {
      if (!url.endsWith('/_sim/events')) return new Promise(() => undefined);
      asked.push(init.headers?.['last-event-id']);
      return Promise.resolve(
        asked.length === 1
          ? openBody(
              FEED('e-0.3.1', 'GET /a → 200') +
                'event: resync\ndata: {"reason":"behind"}\n\n' +
                FEED('e-0.9.9', 'never taken'),
            )
          : openBody(''),
      );
    };
    const elements = new Map<string, unknown>();
    const document = {
      getElementById: (id: string) => elements.get(id) ?? elements.set(id, anything()).get(id),
      createElement: () => anything(),
      createElementNS: () => anything(),
      body: { dataset: { api: '/api/v2' } },
    };
    runInNewContext(await pageScript('browser/dashboard'), {
      document,
      fetch,
      location: { hash: '#key=k', pathname: '/', search: '' },
      history: { replaceState: () => undefined },
      sessionStorage: { setItem: () => undefined, getItem: () => null },
      innerHeight: 800,
      performance,
      setTimeout,
      clearTimeout,
      TextDecoder,
      URLSearchParams,
      console,
    });
    for (let waited = 0; asked.length < 2; waited += 25) {
      if (waited > 10_000) throw new Error(`asked for the stream ${asked.length} times`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(asked).toEqual([undefined, 'e-0.3.1']);
  });
});
