/**
 * One API request as the HTTP tests send it: the bearer key, a JSON body, and the answer parsed
 * (JSON, or text for other content types). Shared by the in-process and the child-process servers.
 */

/** How a request reaches a server (`fetch`, or a core's fetch in process). */
export type Send = (url: string, init: RequestInit) => Promise<Response>;

/** Sends `method path` with `key` through `send`; a string body goes as it is, others as JSON. */
export async function callJson(
  send: Send,
  base: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await send(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  // Typed like `fetch`'s `json()`: tests read the fields they expect.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const json: any =
    text === ''
      ? undefined
      : response.headers.get('content-type')?.startsWith('application/json')
        ? JSON.parse(text)
        : text;
  return { status: response.status, headers: response.headers, body: json };
}
