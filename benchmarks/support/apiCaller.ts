/**
 * Calls to a served simulation's API from a benchmark, with its key: the answer's JSON body (the
 * benchmarks read what they need of it and do not check statuses).
 */

/** A JSON body as the benchmarks read it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyBody = Record<string, any>;

/** `call(method, path, body?)` for the API at `base` (`http://…/api/v2`) with `key`. */
export function apiCaller(
  base: string,
  key: string,
): (method: string, path: string, body?: unknown) => Promise<AnyBody> {
  return async (method, path, body) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await response.json()) as AnyBody;
  };
}
