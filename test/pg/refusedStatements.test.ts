/**
 * What the front refuses before a database sees it, judged on statements it must refuse and on
 * statements it must let through (the same words in other places, strings, comments, identifiers).
 */
import { describe, expect, it } from 'vitest';
import { backendMessage } from '../../src/pg/backendMessages.js';
import { refusalInMessages, refusalOf } from '../../src/pg/refusedStatements.js';
import { sqlStatements, sqlTokens } from '../../src/pg/sqlTokens.js';

describe('refusalOf', () => {
  it.each([
    ["copy (select 1) to program 'id'", 'permission denied to COPY to or from an external program'],
    [
      "COPY t FROM PROGRAM 'cat /etc/passwd'",
      'permission denied to COPY to or from an external program',
    ],
    ["copy t to '/tmp/out.csv' with (format csv)", 'permission denied to COPY to a file'],
    ["copy t (a, b) from '/etc/hostname'", 'permission denied to COPY from a file'],
    [
      "copy (select ';' as x) to program 'id'",
      'permission denied to COPY to or from an external program',
    ],
    ["copy (select ')' from (select 1) s) to E'/tmp/x'", 'permission denied to COPY to a file'],
    [
      "select 1; /* */ copy t to program 'x'",
      'permission denied to COPY to or from an external program',
    ],
    ["select pg_read_file('/etc/passwd')", 'permission denied for function pg_read_file'],
    ["select pg_catalog.pg_ls_dir ( '.' )", 'permission denied for function pg_ls_dir'],
    ["select lo_import('/etc/hostname')", 'permission denied for function lo_import'],
    [
      "do $$ begin execute 'copy (select 1) to program ''id'''; end $$",
      'permission denied to COPY to or from an external program',
    ],
    [
      "do $body$ begin copy (select 1) to program 'id'; end $body$",
      'permission denied to COPY to or from an external program',
    ],
    [
      "create function f() returns void language plpgsql as $f$ begin execute $q$copy t to '/x'$q$; end $f$",
      'permission denied to COPY to a file',
    ],
  ])('refuses %s', (sql, message) => {
    expect(refusalOf(sql)).toMatchObject({ sqlstate: '42501', message });
  });

  it.each([
    'copy t from stdin',
    "copy t from stdin with (format csv, delimiter ',')",
    'copy (select 1) to stdout',
    'COPY t TO STDOUT (FORMAT binary)',
    'select copy from t',
    'select "copy" from t where "to" = 1',
    "insert into notes values ('copy t to program ''x''')",
    "select 'pg_read_file(x)' as text",
    "-- copy t to program 'x'\nselect 1",
    "/* copy t to program 'x' /* nested */ */ select 1",
    'select my_pg_read_file(1)',
    'select pg_read_file from files',
    "do $$ begin raise notice 'hello'; end $$",
    'create table copy_log (program text, "from" text)',
    'select $1::text',
  ])('lets %s through', (sql) => {
    expect(refusalOf(sql)).toBeUndefined();
  });
});

describe('refusalInMessages', () => {
  const query = (sql: string) => backendMessage('Q', Buffer.from(`${sql}\0`));
  const parse = (sql: string) => backendMessage('P', Buffer.from(`stmt\0${sql}\0\0\0`));

  it('finds a refused statement in a Query or in any Parse of a batch', () => {
    expect(refusalInMessages(query("copy t to program 'x'"))).toBeDefined();
    const batch = Buffer.concat([
      parse('select 1'),
      backendMessage('S'),
      parse("copy t to '/tmp/x'"),
      backendMessage('S'),
    ]);
    expect(refusalInMessages(batch)?.message).toBe('permission denied to COPY to a file');
    expect(
      refusalInMessages(Buffer.concat([parse('select 1'), backendMessage('S')])),
    ).toBeUndefined();
  });
});

describe('sqlTokens', () => {
  it('reads strings, quoted identifiers and dollar quotes as Postgres does', () => {
    expect(sqlTokens(`select 'it''s', E'a\\'b', "Q""x", $t$ $$ $t$, $1, f(x.y) -- c`)).toEqual([
      { kind: 'word', text: 'select' },
      { kind: 'string', text: "it's" },
      { kind: 'string', text: "a'b" },
      { kind: 'identifier', text: 'Q"x' },
      { kind: 'string', text: ' $$ ' },
      { kind: 'word', text: 'f' },
      { kind: 'other', text: '(' },
      { kind: 'word', text: 'x' },
      { kind: 'other', text: '.' },
      { kind: 'word', text: 'y' },
      { kind: 'other', text: ')' },
    ]);
    expect(sqlStatements("select ';'; ; select 2").length).toBe(2);
  });
});
