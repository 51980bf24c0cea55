/**
 * The served simulations the hostile clients attack: a `serve --pg-port` child with an inspector, a
 * bystander on a project of its own and a victim whose table every case may check; and what the
 * cases need of them: projects made through the API, requests retried past a locked branch, `pg`
 * clients connected and ended without hanging, and the count of the victim's rows.
 */
import pg from 'pg';
import { startBystander, type Bystander, type BystanderConfig } from '../support/bystander.js';
import { residentBytes } from '../support/residentMemory.js';
import { startServeChild, type ServeChild } from '../support/serveChild.js';
import { errorText, mb, sleep, within } from './common.js';

/** Rows of the victim's table, created before the cases. */
export const KEPT_ROWS = 1_000;
/**
 * Node's options for each server: an inspector on loopback, through which a full collection is
 * forced after each case's figures are read (telling garbage not yet collected from memory held).
 */
const INSPECTED = ['--inspect=127.0.0.1:0'];

/** A project of the served simulation, as its clients reach it. */
export interface Project {
  readonly id: string;
  readonly branchId: string;
  readonly endpointId: string;
  readonly password: string;
  /** The connection URI the API gave. */
  readonly uri: string;
  /** The same, taken apart for `pg` (host, port, user, password, database, options). */
  readonly config: BystanderConfig;
}

/**
 * Creates a project (whose compute never suspends when `awake`: an idle client of it is not dropped
 * at scale to zero, and its database stays open, so a case's RSS is not its opening or closing).
 */
export async function createProject(
  server: ServeChild,
  name: string,
  awake = true,
): Promise<Project> {
  const created = await server.call('POST', '/projects', {
    project: {
      name,
      ...(awake ? { default_endpoint_settings: { suspend_timeout_seconds: -1 } } : {}),
    },
  });
  if (created.status !== 201)
    throw new Error(`POST /projects: ${created.status} ${created.text.slice(0, 300)}`);
  const body = JSON.parse(created.text) as {
    project: { id: string };
    branch: { id: string };
    endpoints: { id: string }[];
    roles: { password: string }[];
    connection_uris: { connection_uri: string }[];
  };
  const uri = body.connection_uris[0]?.connection_uri as string;
  const url = new URL(uri);
  return {
    id: body.project.id,
    branchId: body.branch.id,
    endpointId: body.endpoints[0]?.id as string,
    password: body.roles[0]?.password as string,
    uri,
    config: {
      host: url.hostname,
      port: Number(url.port),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: url.pathname.slice(1),
      options: url.searchParams.get('options') ?? '',
    },
  };
}

/** Waits (at most `ms`) until no operation of `projectId` is unfinished. */
export async function operationsSettled(server: ServeChild, projectId: string, ms = 30_000) {
  const started = performance.now();
  while (performance.now() - started < ms) {
    const listed = await server.call('GET', `/projects/${projectId}/operations?limit=100`);
    const body = JSON.parse(listed.text) as { operations?: { status: string }[] };
    const open = (body.operations ?? []).filter(
      (operation) => !['finished', 'skipped', 'error', 'cancelled'].includes(operation.status),
    );
    if (open.length === 0) return;
    await sleep(200);
  }
}

/** An API request retried while the branch is locked by an operation (423), a few seconds at most. */
export async function unlocked(server: ServeChild, method: string, path: string, body?: unknown) {
  for (let attempt = 0; ; attempt += 1) {
    const answer = await server.call(method, path, body);
    if (answer.status !== 423 || attempt >= 50) return answer;
    await sleep(200);
  }
}

/**
 * A `pg` client of `config` (with `extra`), connected. An error while it idles (the server ended it)
 * is not thrown at the process: the next statement on it fails instead, and says so.
 */
export async function connectClient(
  config: BystanderConfig,
  extra: pg.ClientConfig = {},
  ms = 30_000,
): Promise<pg.Client> {
  const client = new pg.Client({ ...config, connectionTimeoutMillis: ms, ...extra });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Ends `client` without waiting long for a server that does not answer. */
export async function endClient(client: pg.Client): Promise<void> {
  await within(client.end(), 5_000, 'end').catch(() => undefined);
}

/** `select count(*) from kept` on a fresh client of `project`: intact when all rows are there. */
export async function keptRows(project: Project, label = 'neondb.kept'): Promise<Intact> {
  try {
    const client = await connectClient(project.config);
    try {
      const result = await within(
        client.query<{ n: number }>('select count(*)::int as n from kept'),
        30_000,
        'count',
      );
      const rows = result.rows[0]?.n ?? -1;
      return { ok: rows === KEPT_ROWS, text: `${label} ${rows} of ${KEPT_ROWS} rows` };
    } finally {
      await endClient(client);
    }
  } catch (error) {
    return { ok: false, text: `${label} unreadable: ${errorText(error)}` };
  }
}

/** Whether the victim's data is intact, in words. */
export interface Intact {
  readonly ok: boolean;
  readonly text: string;
}

/** A served simulation under attack: the child, its bystander, and (on the main one) a victim. */
export interface Target {
  readonly name: string;
  readonly server: ServeChild;
  readonly bystander: Bystander;
  readonly victim: Project;
}

/** Starts a server with `args`, a bystander on a project of its own, and a victim with its table. */
export async function startTarget(
  name: string,
  options: { readonly args?: readonly string[]; readonly openFiles?: number } = {},
): Promise<Target> {
  const server = await startServeChild({ ...options, nodeArgs: INSPECTED });
  let bystander: Bystander | undefined;
  try {
    const byProject = await createProject(server, 'bystander');
    const victim = await createProject(server, 'victim');
    bystander = await startBystander(byProject.config, {
      port: server.httpPort,
      key: server.key,
    });
    await sleep(3_000); // the bystander's path warmed up (not measured)
    const client = await connectClient(victim.config);
    await client.query('create table kept (id int primary key, note text)');
    await client.query(
      `insert into kept select g, 'row ' || g from generate_series(1, ${KEPT_ROWS}) g`,
    );
    await endClient(client);
    console.log(
      `\n[${name}] serve pid ${server.pid}: http ${server.origin}, postgres 127.0.0.1:${server.pgPort}` +
        `${options.args?.length ? `, ${options.args.join(' ')}` : ''}` +
        `${options.openFiles === undefined ? '' : `, ulimit -n ${options.openFiles}`}; RSS ${mb(residentBytes(server.pid))}`,
    );
    return { name, server, bystander, victim };
  } catch (error) {
    await bystander?.stop();
    await server.stop();
    throw error;
  }
}

/** Stops `target`'s bystander, then its server. */
export async function stopTarget(target: Target): Promise<void> {
  await target.bystander.stop().catch(() => undefined);
  await target.server.stop();
}
