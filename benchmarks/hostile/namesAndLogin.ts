/**
 * Cases 1 to 3: databases named `..` and `.` (a branch made after one, the other deleted as sent),
 * messages of a gibibyte or 32 MiB declared before login, and broken messages after it.
 */
import { describeError, rawConnect, typedHeader } from '../support/rawPostgres.js';
import { GIB, MB, sleep } from './common.js';
import { hijacked, rawOutcomes, stream, victimStartup } from './rawClients.js';
import type { CaseOutcome } from './runCase.js';
import {
  endClient,
  keptRows,
  operationsSettled,
  unlocked,
  type Intact,
  type Target,
} from './targets.js';

/** 1a: a database named `..`, then a branch. */
export async function dotDotDatabase(target: Target): Promise<CaseOutcome> {
  const { server, victim } = target;
  const made = await unlocked(
    server,
    'POST',
    `/projects/${victim.id}/branches/${victim.branchId}/databases`,
    { database: { name: '..', owner_name: 'neondb_owner' } },
  );
  await operationsSettled(server, victim.id);
  const branched = await unlocked(server, 'POST', `/projects/${victim.id}/branches`, {
    branch: { name: 'after-dot-dot' },
    endpoints: [{ type: 'read_write' }],
  });
  await operationsSettled(server, victim.id);
  const parent = await keptRows(victim);
  let child: Intact = { ok: false, text: 'the branch was not made' };
  if (branched.status === 201) {
    // Its compute, with the parent's role and password (the answer has no connection URI: the
    // branch has two databases).
    const body = JSON.parse(branched.text) as {
      branch: { id: string };
      endpoints: { id: string }[];
    };
    child = await keptRows(
      {
        ...victim,
        config: { ...victim.config, options: `endpoint=${body.endpoints[0]?.id}` },
      },
      'the new branch’s kept',
    );
    // The branch's database is closed again (its RSS is no part of the case): its compute
    // suspended first, as deleting the branch alone leaves its database open.
    await unlocked(
      server,
      'POST',
      `/projects/${victim.id}/endpoints/${body.endpoints[0]?.id}/suspend`,
    );
    await operationsSettled(server, victim.id);
    await unlocked(server, 'DELETE', `/projects/${victim.id}/branches/${body.branch.id}`);
    await operationsSettled(server, victim.id);
  }
  return {
    outcome: `API: POST databases {name: '..'} ${made.status}, then POST branches ${branched.status}`,
    clientOk: made.status < 500 && branched.status < 500,
    data: { ok: parent.ok && child.ok, text: `${parent.text}; ${child.text}` },
  };
}

/** 1b: a database named `.`, then DELETE …/databases/%2E as sent (no path normalisation). */
export async function dotDatabase(target: Target): Promise<CaseOutcome> {
  const { server, victim } = target;
  const base = `/projects/${victim.id}/branches/${victim.branchId}/databases`;
  const made = await unlocked(server, 'POST', base, {
    database: { name: '.', owner_name: 'neondb_owner' },
  });
  await operationsSettled(server, victim.id);
  const deleted = await unlocked(server, 'DELETE', `${base}/%2E`);
  await operationsSettled(server, victim.id);
  const open = await keptRows(victim, 'neondb.kept (instance open)');
  // Suspend the compute, so the next client opens neondb again from its files on disk.
  const suspended = await unlocked(
    server,
    'POST',
    `/projects/${victim.id}/endpoints/${victim.endpointId}/suspend`,
  );
  await operationsSettled(server, victim.id);
  const reopened = await keptRows(victim, 'reopened from disk');
  return {
    outcome: `API: POST databases {name: '.'} ${made.status}, DELETE databases/%2E ${deleted.status} (suspend ${suspended.status})`,
    clientOk: made.status < 500 && deleted.status < 500,
    data: { ok: open.ok && reopened.ok, text: `${open.text}; ${reopened.text}` },
  };
}

/** 2a: four clients each declare a 1 GiB message before login and stream it for up to 10 s. */
export async function gigabyteBeforeLogin(target: Target): Promise<CaseOutcome> {
  const { server, victim } = target;
  const started = performance.now();
  const types = ['Q', 'p', 'Q', 'p'];
  const connections = await Promise.all(types.map(() => rawConnect(server.pgPort)));
  const sent = await Promise.all(
    connections.map(async (connection, i) => {
      await connection.write(victimStartup(victim));
      await connection.write(typedHeader(types[i] as string, GIB + 4));
      return stream(connection, GIB, 10_000);
    }),
  );
  const closed = await Promise.all(connections.map((connection) => connection.closedWithin(3_000)));
  const outcome = `4 clients (2 × 'Q', 2 × 'p' declaring 1 GiB): ${rawOutcomes(connections, started, sent)}`;
  for (const connection of connections) connection.socket.destroy();
  return {
    outcome,
    clientOk: closed.every(Boolean) && sent.every((bytes) => bytes < GIB),
  };
}

/** 2b: one client sends a whole 32 MiB query before login. */
export async function largeMessageBeforeLogin(target: Target): Promise<CaseOutcome> {
  const { server, victim } = target;
  const started = performance.now();
  const connection = await rawConnect(server.pgPort);
  await connection.write(victimStartup(victim));
  await connection.write(typedHeader('Q', 32 * MB + 4));
  const sent = await stream(connection, 32 * MB, 10_000);
  const closed = await connection.closedWithin(3_000);
  const outcome = `one 32 MiB 'Q' before login: ${rawOutcomes([connection], started, [sent])}`;
  connection.socket.destroy();
  return { outcome, clientOk: closed };
}

/** 3a/3b: a logged-in client sends `message`; what comes back in the next 5 s. */
export async function brokenAfterLogin(target: Target, message: Buffer, what: string) {
  const { client, raw } = await hijacked(target.victim.config);
  const started = performance.now();
  await raw.write(message);
  await sleep(5_000);
  const closed = raw.closed();
  const received = raw.received();
  raw.socket.destroy();
  await endClient(client);
  return {
    outcome:
      `${what}: ${describeError(raw.error())}, ` +
      `${closed === undefined ? 'connection still open' : `closed after ${(closed.at - started).toFixed(0)} ms`}; ` +
      `${received.toLocaleString('en-US')} bytes received in 5 s`,
    clientOk: closed !== undefined && received < 64 * 1024,
  };
}
