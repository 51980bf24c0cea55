/** The page's API calls: the key on each, JSON bodies, and a refused key sending the page back. */
import { describe, expect, it } from 'vitest';
import { ApiClient, Unauthorized } from '../../src/browser/apiClient.js';

/** A client whose server answers `answer`, and what it was asked. */
function client(answer: () => Response) {
  const asked: { url: string; init: RequestInit }[] = [];
  const refusals: string[] = [];
  const api = new ApiClient(
    '/api/v2',
    (message) => refusals.push(message),
    (url, init) => {
      asked.push({ url, init });
      return Promise.resolve(answer());
    },
  );
  api.key = 'csim_k';
  return { api, asked, refusals };
}

describe("the page's API calls", () => {
  it('send the key, and a body as JSON only when there is one', async () => {
    const { api, asked } = client(() => Response.json({}));
    await api.call('POST', '/_sim/advance', { by: '5m' });
    await api.call('GET', '/_sim/view?first=0');
    expect(asked).toEqual([
      {
        url: '/api/v2/_sim/advance',
        init: {
          method: 'POST',
          headers: { authorization: 'Bearer csim_k', 'content-type': 'application/json' },
          body: '{"by":"5m"}',
        },
      },
      {
        url: '/api/v2/_sim/view?first=0',
        init: { method: 'GET', headers: { authorization: 'Bearer csim_k' } },
      },
    ]);
  });

  it('pass other errors on to the caller', async () => {
    const { api, refusals } = client(() => Response.json({ message: 'busy' }, { status: 503 }));
    expect((await api.call('GET', '/_sim/view')).status).toBe(503);
    expect(refusals).toEqual([]);
  });

  it("ask for another key when the server refuses this one, with the server's reason or one of their own", async () => {
    for (const [answer, told] of [
      [
        Response.json({ message: 'this key may not watch' }, { status: 403 }),
        'this key may not watch',
      ],
      [new Response('not JSON', { status: 401 }), 'this key is not accepted'],
    ] as const) {
      const { api, refusals } = client(() => answer);
      await expect(api.call('GET', '/_sim/view')).rejects.toBeInstanceOf(Unauthorized);
      expect(refusals).toEqual([told]);
    }
  });
});
