/**
 * A `fetch` over the in-process simulation: no sockets, answers in the API's JSON. Any origin is
 * accepted; the path must start with `/api/v2`. The `Authorization: Bearer …` header carries the key.
 */
import { API_PREFIX, apiPath } from '../api/apiPrefix.js';
import type { ClientEdge, EdgeResponse } from './clientEdge.js';

/** The `fetch` signature the harness hands to client code. */
export type SimFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Placeholder origin used to resolve relative URLs (the harness's `baseURL` uses it too). */
export const SIM_ORIGIN = 'http://computesim.test';

/** Builds a `fetch` that sends every request through `edge`; `onRequest` runs after each one. */
export function createSimFetch(edge: ClientEdge, onRequest: () => void = () => {}): SimFetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      SIM_ORIGIN,
    );
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init?.headers ?? request?.headers);
    const text =
      init?.body !== undefined && init.body !== null
        ? await new Response(init.body).text()
        : request !== undefined && request.body !== null
          ? await request.text()
          : '';
    const answer = (): EdgeResponse => {
      if (!apiPath(url.pathname).prefixed)
        return notFound(`${url.pathname} is not under ${API_PREFIX}`);
      let body: unknown;
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          return {
            status: 400,
            body: { code: 'invalid_input', message: 'the request body is not valid JSON' },
            headers: {},
          };
        }
      }
      const bearer = /^Bearer\s+(\S+)$/i.exec(headers.get('authorization') ?? '')?.[1];
      return edge.send(method, url.pathname + url.search, body, bearer);
    };
    const response = answer();
    onRequest();
    return new Response(
      response.status === 204 || response.body === undefined ? null : JSON.stringify(response.body),
      {
        status: response.status,
        headers: { 'content-type': 'application/json', ...response.headers },
      },
    );
  };
}

function notFound(message: string): EdgeResponse {
  return { status: 404, body: { code: 'not_found', message }, headers: {} };
}
