/**
 * An axios adapter over the in-process simulation, for clients built on axios, such as the official
 * `@neondatabase/api-client` (`createApiClient({ apiKey, baseURL, adapter })`). No axios import:
 * it speaks the adapter contract (config in, response out, rejection past `validateStatus`).
 */
import { API_PREFIX, apiPath } from '../api/apiPrefix.js';
import type { ClientEdge } from './clientEdge.js';
import { SIM_ORIGIN } from './simFetch.js';

/** The parts of an axios request config the adapter reads. */
export interface AxiosLikeConfig {
  readonly url?: string;
  readonly baseURL?: string;
  readonly method?: string;
  readonly data?: unknown;
  readonly params?: unknown;
  readonly headers?: unknown;
  readonly validateStatus?: ((status: number) => boolean) | null;
}

/** An axios response. */
export interface AxiosLikeResponse {
  readonly data: unknown;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Record<string, string>;
  readonly config: AxiosLikeConfig;
  readonly request: object;
}

/** An axios adapter function. */
export type SimAxiosAdapter = (config: AxiosLikeConfig) => Promise<AxiosLikeResponse>;

/** Builds an axios adapter that sends every request through `edge`. */
export function createAxiosAdapter(
  edge: ClientEdge,
  onRequest: () => Promise<never> | void = () => {},
): SimAxiosAdapter {
  return (config) => {
    const parked = onRequest();
    if (parked) return parked;
    const url = new URL(joinUrl(config.baseURL, config.url ?? ''), SIM_ORIGIN);
    for (const [key, value] of Object.entries((config.params ?? {}) as Record<string, unknown>))
      if (value !== undefined && value !== null) url.searchParams.append(key, textOf(value));
    const method = (config.method ?? 'get').toUpperCase();
    const bearer = /^Bearer\s+(\S+)$/i.exec(headerOf(config.headers, 'authorization'))?.[1];
    let body: unknown = config.data;
    let answer;
    if (typeof body === 'string' && body !== '') {
      try {
        body = JSON.parse(body);
      } catch {
        answer = {
          status: 400,
          body: { code: 'invalid_input', message: 'the request body is not valid JSON' },
          headers: {},
        };
      }
    }
    if (body === '') body = undefined;
    answer ??= apiPath(url.pathname).prefixed
      ? edge.send(method, url.pathname + url.search, body, bearer)
      : {
          status: 404,
          body: { code: 'not_found', message: `${url.pathname} is not under ${API_PREFIX}` },
          headers: {},
        };
    const response: AxiosLikeResponse = {
      data: answer.body === undefined ? '' : JSON.stringify(answer.body),
      status: answer.status,
      statusText: String(answer.status),
      headers: { 'content-type': 'application/json', ...answer.headers },
      config,
      request: {},
    };
    const accepted =
      config.validateStatus === null || config.validateStatus === undefined
        ? true
        : config.validateStatus(answer.status);
    if (accepted) return Promise.resolve(response);
    return Promise.reject(
      Object.assign(new Error(`Request failed with status code ${answer.status}`), {
        isAxiosError: true,
        code: answer.status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST',
        status: answer.status,
        config,
        response,
      }),
    );
  };
}

function joinUrl(base: string | undefined, url: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || base === undefined) return url;
  return `${base.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

function headerOf(headers: unknown, name: string): string {
  if (headers === null || typeof headers !== 'object') return '';
  const withGet = headers as { get?: (n: string) => unknown };
  if (typeof withGet.get === 'function') {
    const value = withGet.get(name);
    if (value !== undefined && value !== null && value !== false) return textOf(value);
  }
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === name && value !== undefined && value !== null) return textOf(value);
  return '';
}

/** A header or query value as text: a string as it is, a number or boolean as written, else JSON. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return value.toString();
  return JSON.stringify(value) ?? '';
}
