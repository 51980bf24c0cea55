/**
 * How a Postgres client names the compute it wants when it cannot send SNI, as the real service
 * accepts it: `endpoint=<id>` (or the older `project=<id>`) in the `options` startup parameter, or
 * `endpoint=<id>;<password>` (or `$` instead of `;`) as the password. An id ending in `-pooler`
 * asks for the compute's pooler.
 */

/** The compute a client named, and whether through its pooler. */
export interface NamedEndpoint {
  readonly endpointId: string;
  readonly pooled: boolean;
}

const OPTION_KEYS = ['endpoint', 'project'] as const;
const POOLER_SUFFIX = '-pooler';

/**
 * The endpoint named in the `options` startup parameter (space-separated; `-c name=value` pairs
 * and other settings are passed over), or `undefined`.
 */
export function endpointFromOptions(options: string | undefined): NamedEndpoint | undefined {
  if (options === undefined) return undefined;
  for (const word of options.split(/\s+/)) {
    const setting = word.replace(/^--?/, '');
    const eq = setting.indexOf('=');
    if (eq <= 0) continue;
    const key = setting.slice(0, eq);
    if ((OPTION_KEYS as readonly string[]).includes(key)) return named(setting.slice(eq + 1));
  }
  return undefined;
}

/**
 * Splits a password of the form `endpoint=<id>;<password>` (or `…$<password>`) into the endpoint
 * and the real password; any other password is returned as it is.
 */
export function splitPassword(password: string): {
  readonly endpoint?: NamedEndpoint;
  readonly password: string;
} {
  const match = /^(?:endpoint|project)=([^;$]+)[;$]([\s\S]*)$/.exec(password);
  if (match === null) return { password };
  const endpoint = named(match[1] ?? '');
  return endpoint === undefined ? { password } : { endpoint, password: match[2] ?? '' };
}

/**
 * The compute a host name names: its first label (`ep-…-123456.us-east-2.aws.…`, or `…-pooler.…`
 * for the pooler), as the real proxy reads SNI; `undefined` for an IP address or a name without a
 * dot.
 */
export function endpointFromHost(host: string): NamedEndpoint | undefined {
  if (!host.includes('.') || /^[\d.]+$/.test(host) || host.includes(':')) return undefined;
  return named(host.slice(0, host.indexOf('.')));
}

function named(id: string): NamedEndpoint | undefined {
  if (id === '') return undefined;
  return id.endsWith(POOLER_SUFFIX)
    ? { endpointId: id.slice(0, -POOLER_SUFFIX.length), pooled: true }
    : { endpointId: id, pooled: false };
}
