/**
 * Statements the front refuses before they reach a database, as the real service refuses them to
 * its users' roles (none of which may reach the server's programs or files): `COPY … TO/FROM
 * PROGRAM`, `COPY` to or from a server file, and the functions that read the server's files. Each is
 * refused with the error Postgres gives a role without the privilege (42501). They matter more here
 * than for a real server: an embedded Postgres that runs `COPY … PROGRAM` stops answering.
 *
 * Statements are read with `sqlTokens`: a COPY anywhere in a statement, and in the bodies of `DO`
 * blocks and functions (where `EXECUTE` may run text), nested. The front's other defence, for what
 * text cannot show (a statement built at run time), is that a database answering FATAL or PANIC is
 * restarted (`ReplyFrames.fatal`).
 */
import { sqlStatements, type SqlToken } from './sqlTokens.js';
import { statementTexts } from './clientBatch.js';

/** Why a statement is refused, in Postgres's fields. */
export interface Refusal {
  readonly sqlstate: string;
  readonly message: string;
  readonly detail?: string;
  readonly hint?: string;
}

/** Functions that read or list the server's files (each needs a role the users' roles lack). */
const FILE_FUNCTIONS: ReadonlySet<string> = new Set([
  'pg_read_file',
  'pg_read_binary_file',
  'pg_ls_dir',
  'pg_stat_file',
  'lo_import',
  'lo_export',
]);

const COPY_HINT =
  "Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone.";
/** How deep bodies inside bodies are read. */
const MOST_NESTING = 4;

const COPY_PROGRAM: Refusal = {
  sqlstate: '42501',
  message: 'permission denied to COPY to or from an external program',
  detail:
    'Only roles with privileges of the "pg_execute_server_program" role may COPY to or from an external program.',
  hint: COPY_HINT,
};
const COPY_FROM_FILE: Refusal = {
  sqlstate: '42501',
  message: 'permission denied to COPY from a file',
  detail: 'Only roles with privileges of the "pg_read_server_files" role may COPY from a file.',
  hint: COPY_HINT,
};
const COPY_TO_FILE: Refusal = {
  sqlstate: '42501',
  message: 'permission denied to COPY to a file',
  detail: 'Only roles with privileges of the "pg_write_server_files" role may COPY to a file.',
  hint: COPY_HINT,
};

/**
 * Words without which no statement is refused: text that has none of them is not read further
 * (a statement of megabytes costs one scan, not a tokenizing).
 */
const SUSPECT = /copy|pg_read_|pg_ls_dir|pg_stat_file|lo_import|lo_export/i;

/** Why `sql` (one or more statements) is refused, or `undefined` when it may run. */
export function refusalOf(sql: string, nesting = 0): Refusal | undefined {
  if (!SUSPECT.test(sql)) return undefined;
  for (const tokens of sqlStatements(sql)) {
    const found = copyRefusal(tokens) ?? functionRefusal(tokens) ?? bodyRefusal(tokens, nesting);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A COPY in the statement that names a program or a server file. */
function copyRefusal(tokens: readonly SqlToken[]): Refusal | undefined {
  for (let i = 0; i < tokens.length; i += 1) {
    if (!isWord(tokens[i], 'copy')) continue;
    let depth = 0;
    for (let j = i + 1; j < tokens.length && depth >= 0; j += 1) {
      const token = tokens[j] as SqlToken;
      if (token.kind === 'other' && token.text === '(') depth += 1;
      else if (token.kind === 'other' && token.text === ')') depth -= 1;
      else if (depth === 0 && (isWord(token, 'from') || isWord(token, 'to'))) {
        const target = tokens[j + 1];
        if (isWord(target, 'program')) return COPY_PROGRAM;
        if (target?.kind === 'string') return isWord(token, 'from') ? COPY_FROM_FILE : COPY_TO_FILE;
        break;
      }
    }
  }
  return undefined;
}

/** A call of a function that reads the server's files. */
function functionRefusal(tokens: readonly SqlToken[]): Refusal | undefined {
  for (let i = 0; i + 1 < tokens.length; i += 1) {
    const token = tokens[i] as SqlToken;
    const next = tokens[i + 1] as SqlToken;
    const name = token.kind === 'word' || token.kind === 'identifier' ? token.text : undefined;
    if (
      name !== undefined &&
      FILE_FUNCTIONS.has(name) &&
      next.kind === 'other' &&
      next.text === '('
    )
      return { sqlstate: '42501', message: `permission denied for function ${name}` };
  }
  return undefined;
}

/**
 * What the bodies of a `DO` block or a function hold (their strings, read as SQL); inside a body,
 * every string is read so (it may be run by `EXECUTE`).
 */
function bodyRefusal(tokens: readonly SqlToken[], nesting: number): Refusal | undefined {
  if (nesting >= MOST_NESTING) return undefined;
  const hasBodies =
    nesting > 0 ||
    isWord(tokens[0], 'do') ||
    tokens.some((token) => isWord(token, 'function') || isWord(token, 'procedure'));
  if (!hasBodies) return undefined;
  for (const token of tokens)
    if (token.kind === 'string') {
      const found = refusalOf(token.text, nesting + 1);
      if (found !== undefined) return found;
    }
  return undefined;
}

function isWord(token: SqlToken | undefined, word: string): boolean {
  return token?.kind === 'word' && token.text === word;
}

/** Why a batch of protocol messages is refused: the first refused Query or Parse in it. */
export function refusalInMessages(messages: Uint8Array): Refusal | undefined {
  for (const text of statementTexts(messages)) {
    const found = refusalOf(text);
    if (found !== undefined) return found;
  }
  return undefined;
}
