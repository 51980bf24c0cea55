/**
 * Connection URIs of a role and database through a compute, built in this one place: direct to the
 * compute's host, or through its pooler, whose host puts `-pooler` after the compute id
 * (`ep-…-123456-pooler.us-east-2.aws.neon.tech`), as the real service names it. When `serve` runs a
 * Postgres front, URIs point at it instead, naming the compute as the real service lets clients
 * without SNI do: `options=endpoint%3D<id>`.
 */

/** What a connection URI is made of. */
export interface ConnectionTarget {
  readonly roleName: string;
  readonly password: string;
  /** The compute's host (`ep-….<region>.<domain>`). */
  readonly host: string;
  readonly databaseName: string;
}

/** Where a Postgres front listens (`computesim serve --pg-port`). */
export interface PostgresAddress {
  readonly host: string;
  readonly port: number;
}

/** The pooler host of a compute host: `-pooler` appended to its first label. */
export function poolerHost(host: string): string {
  const dot = host.indexOf('.');
  return dot === -1 ? `${host}-pooler` : `${host.slice(0, dot)}-pooler${host.slice(dot)}`;
}

/**
 * `postgresql://ROLE:PASSWORD@HOST/DB?sslmode=require`, through the pooler when `pooled`; with a
 * front, `postgresql://ROLE:PASSWORD@FRONT_HOST:PORT/DB?sslmode=disable&options=endpoint%3D<id>`
 * (the id ends in `-pooler` when pooled).
 */
export function connectionUri(
  target: ConnectionTarget,
  pooled: boolean,
  front?: PostgresAddress,
): string {
  const host = pooled ? poolerHost(target.host) : target.host;
  const role = encodeURIComponent(target.roleName);
  const password = encodeURIComponent(target.password);
  const database = encodeURIComponent(target.databaseName);
  if (front === undefined)
    return `postgresql://${role}:${password}@${host}/${database}?sslmode=require`;
  const endpoint = encodeURIComponent(`endpoint=${firstLabel(host)}`);
  const address = front.host.includes(':') ? `[${front.host}]` : front.host;
  return `postgresql://${role}:${password}@${address}:${front.port}/${database}?sslmode=disable&options=${endpoint}`;
}

function firstLabel(host: string): string {
  const dot = host.indexOf('.');
  return dot === -1 ? host : host.slice(0, dot);
}
