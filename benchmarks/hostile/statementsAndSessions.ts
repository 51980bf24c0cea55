/**
 * Cases 4 to 6: `COPY … TO PROGRAM` beside other clients of the branch, an idle session on a server
 * that keeps one database open, Parse messages without a Sync, and clients that die mid-flight.
 */
import { describeError, parseMessage, typedHeader, typedMessage } from '../support/rawPostgres.js';
import { errorText, GIB, MB, secondsSince, sleep, tally, within } from './common.js';
import { hijacked, stream } from './rawClients.js';
import type { CaseOutcome } from './runCase.js';
import {
  connectClient,
  createProject,
  endClient,
  KEPT_ROWS,
  keptRows,
  type Target,
} from './targets.js';

/** 4: COPY … TO PROGRAM, plainly and built at run time; every other client of the branch works. */
export async function copyToProgram(target: Target): Promise<CaseOutcome> {
  const { victim } = target;
  const siblings = await Promise.all([connectClient(victim.config), connectClient(victim.config)]);
  const hostile = await connectClient(victim.config);
  const statements = [
    `COPY (select 1) TO PROGRAM 'id'`,
    `do $$ begin execute 'co' || 'py (select 1) to program ''id'''; end $$`,
  ];
  const answers: string[] = [];
  let refused = 0;
  const checks: string[] = [];
  let siblingsOk = true;
  for (const [i, sql] of statements.entries()) {
    const started = performance.now();
    try {
      await within(hostile.query(sql), 30_000, 'statement');
      answers.push(
        `${i === 0 ? 'COPY' : 'DO'}: ran (${(performance.now() - started).toFixed(0)} ms)`,
      );
    } catch (error) {
      refused += 1;
      answers.push(
        `${i === 0 ? 'COPY' : 'DO'}: ${errorText(error)} (${(performance.now() - started).toFixed(0)} ms)`,
      );
    }
    const counts = await Promise.all(
      siblings.map(async (sibling) => {
        try {
          const result = await within(
            sibling.query<{ n: number }>('select count(*)::int as n from kept'),
            30_000,
            'count',
          );
          return result.rows[0]?.n === KEPT_ROWS ? 'ok' : `${result.rows[0]?.n} rows`;
        } catch (error) {
          siblingsOk = false;
          return errorText(error);
        }
      }),
    );
    if (counts.some((count) => count !== 'ok')) siblingsOk = false;
    checks.push(`after ${i === 0 ? 'COPY' : 'DO'}: ${counts.join(', ')}`);
  }
  const fresh = await keptRows(victim, 'a new client');
  await Promise.all([...siblings, hostile].map(endClient));
  return {
    outcome: answers.join('; '),
    clientOk: refused === statements.length,
    data: {
      ok: siblingsOk && fresh.ok,
      text: `2 other clients of the branch: ${checks.join('; ')}; ${fresh.text}`,
    },
  };
}

/** 5: on a server with --pg-max-open 1, an idle client's session outlives three other projects. */
export async function maxOpenOne(target: Target): Promise<CaseOutcome> {
  const { server, victim } = target;
  const a = await connectClient(victim.config);
  await a.query(`set application_name = 'kept-by-a'`);
  await a.query('create temp table a_temp as select 42 as v');
  await a.query(`prepare a_statement as select 'prepared-ok'::text as t`);
  const others = await Promise.all(
    [1, 2, 3].map((i) => createProject(server, `other-${i}`, false)),
  );
  const results = await Promise.all(
    others.map(async (project) => {
      const done: string[] = [];
      try {
        for (let round = 0; round < 2; round += 1) {
          const client = await connectClient(project.config);
          try {
            await within(client.query('create table if not exists w (i int)'), 30_000, 'create');
            for (let i = 0; i < 20; i += 1)
              await within(client.query('insert into w values ($1)', [i]), 30_000, 'insert');
            await within(client.query('select count(*) from w'), 30_000, 'count');
            done.push('ok');
          } finally {
            await endClient(client);
          }
          await sleep(1_000);
        }
        return done.length === 2 ? 'ok' : done.join(',');
      } catch (error) {
        return errorText(error);
      }
    }),
  );
  await sleep(2_000);
  const kept: string[] = [];
  let keptOk = true;
  const read = async (label: string, sql: string, expected: string) => {
    try {
      const result = await within(a.query<Record<string, unknown>>(sql), 30_000, label);
      const value = String(Object.values(result.rows[0] ?? {})[0]);
      if (value !== expected) keptOk = false;
      kept.push(`${label} ${value}`);
    } catch (error) {
      keptOk = false;
      kept.push(`${label} ${errorText(error)}`);
    }
  };
  await read('application_name', 'show application_name', 'kept-by-a');
  await read('temp table', 'select v from a_temp', '42');
  await read('prepared statement', 'execute a_statement', 'prepared-ok');
  await endClient(a);
  for (const project of others) await server.call('DELETE', `/projects/${project.id}`);
  return {
    outcome: `3 other projects' clients (2 sessions × 22 statements each, while A idled): ${tally(results)}`,
    clientOk: results.every((result) => result === 'ok'),
    data: { ok: keptOk, text: `A's session: ${kept.join(', ')}` },
  };
}

/** 6a: Parse messages of 1 MiB each, never a Sync, up to 1 GiB (or 30 s). */
export async function parseWithoutSync(target: Target): Promise<CaseOutcome> {
  const { client, raw } = await hijacked(target.victim.config);
  const started = performance.now();
  const message = parseMessage('', `select '${'x'.repeat(MB - 32)}'`);
  let sent = 0;
  while (sent < GIB && performance.now() - started < 30_000) {
    if (!(await raw.write(message, 5_000))) break;
    sent += message.length;
  }
  await raw.closedWithin(3_000);
  const closed = raw.closed();
  raw.socket.destroy();
  await endClient(client);
  return {
    outcome:
      `sent ${(sent / MB).toFixed(0)} MiB of Parse: ${describeError(raw.error())}, ` +
      `${closed === undefined ? 'connection still open' : `closed after ${secondsSince(started).toFixed(1)} s`}`,
    clientOk: closed !== undefined && sent < GIB,
  };
}

/** 6b: clients that die with data in flight: mid-message, mid-result, mid-COPY. */
export async function diedInFlight(target: Target): Promise<CaseOutcome> {
  const { victim } = target;
  const setup = await connectClient(victim.config);
  await setup.query('create table if not exists hostile_in (t text)');
  await endClient(setup);
  const line = Buffer.from(`${'y'.repeat(1023)}\n`);
  const copyChunk = typedMessage('d', Buffer.concat(Array.from({ length: 1024 }, () => line)));
  const kinds = ['message', 'result', 'copy'] as const;
  const ends = await Promise.all(
    kinds.flatMap((kind) =>
      [0, 1, 2, 3].map(async () => {
        const { client, raw } = await hijacked(victim.config);
        if (kind === 'message') {
          await raw.write(typedHeader('Q', 32 * MB + 4));
          await stream(raw, 16 * MB, 10_000);
        } else if (kind === 'result') {
          await raw.write(
            typedMessage(
              'Q',
              Buffer.from(`select repeat('x', 1000) from generate_series(1, 200000)\0`),
            ),
          );
          const started = performance.now();
          while (raw.received() < MB && performance.now() - started < 5_000) await sleep(20);
        } else {
          await raw.write(typedMessage('Q', Buffer.from('copy hostile_in from stdin\0')));
          for (let i = 0; i < 8; i += 1) if (!(await raw.write(copyChunk, 5_000))) break;
        }
        const received = raw.received();
        raw.socket.destroy();
        await endClient(client);
        return `${kind} (${(received / 1024).toFixed(0)} KiB received)`;
      }),
    ),
  );
  const started = performance.now();
  const after = await keptRows(victim, 'then a new client: neondb.kept');
  return {
    outcome: `12 clients destroyed their sockets mid-flight: ${tally(ends.map((end) => end.replace(/ \(.*/, '')))}`,
    clientOk: true,
    data: {
      ok: after.ok,
      text: `${after.text} (answered in ${secondsSince(started).toFixed(1)} s)`,
    },
  };
}
