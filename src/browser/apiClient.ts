/**
 * The page's calls to the API: every one with the key (a bearer token, which an `EventSource`
 * could not send), and a key the server refuses sends the page back to ask for another.
 */

/** The call was refused for its key; the page now asks for another (nothing more to tell). */
export class Unauthorized extends Error {
  constructor() {
    super('unauthorized');
  }
}

/** What a refused call does: ask for a key, telling why. */
export type Refused = (message: string) => void;

/** Calls the API with the key the page was given. */
export class ApiClient {
  /** The key calls send (`undefined` until the page has one). */
  key: string | undefined;

  /**
   * @param api - where the API is on the page's own origin (`/api/v2`, as the page says it)
   */
  constructor(
    readonly api: string,
    readonly refused: Refused,
    readonly fetcher: (url: string, init: RequestInit) => Promise<Response> = (url, init) =>
      fetch(url, init),
  ) {}

  /**
   * The answer to `method path` (from `/api/v2` on), with `body` as JSON when there is one. Rejects
   * with `Unauthorized` when the key is refused.
   */
  async call(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> =
      body === undefined ? {} : { 'content-type': 'application/json' };
    const init =
      body === undefined ? { method, headers } : { method, headers, body: JSON.stringify(body) };
    const response = await this.send(path, init);
    if (response === undefined) throw new Unauthorized();
    return response;
  }

  /**
   * The answer to a request for `path` with the key added to `init`'s headers, or `undefined` when
   * the key is refused (the page then asks for another).
   */
  async send(
    path: string,
    init: RequestInit & { readonly headers: Record<string, string> },
  ): Promise<Response | undefined> {
    const response = await this.fetcher(this.api + path, {
      ...init,
      headers: { authorization: `Bearer ${this.key}`, ...init.headers },
    });
    if (response.status !== 401 && response.status !== 403) return response;
    const problem = (await response.json().catch(() => ({}))) as { message?: string };
    this.refused(problem.message || 'this key is not accepted');
    return undefined;
  }
}
