/**
 * SQL text cut into tokens as Postgres's lexer cuts it, for the front's few checks of what a client
 * asks (see `refusedStatements.ts`): words (keywords and plain identifiers, lower-cased), quoted
 * identifiers, string constants (`'…'`, `E'…'`, `$tag$…$tag$`, with their values), and single
 * characters; comments (`--`, nested `/* … *\/`) and white space dropped. Not a parser: it knows
 * where a statement's words and strings are, and where statements end (`;`).
 */

/** One token. */
export type SqlToken =
  | { readonly kind: 'word'; readonly text: string }
  | { readonly kind: 'identifier'; readonly text: string }
  | { readonly kind: 'string'; readonly text: string }
  | { readonly kind: 'other'; readonly text: string };

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const DOLLAR_TAG = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/;

/** The statements of `sql`, each as its tokens (empty statements left out). */
export function sqlStatements(sql: string): SqlToken[][] {
  const statements: SqlToken[][] = [];
  let current: SqlToken[] = [];
  for (const token of sqlTokens(sql)) {
    if (token.kind === 'other' && token.text === ';') {
      if (current.length > 0) statements.push(current);
      current = [];
    } else current.push(token);
  }
  if (current.length > 0) statements.push(current);
  return statements;
}

/** The tokens of `sql`. An unterminated string or comment runs to the end, as a lexer reads it. */
export function sqlTokens(sql: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let at = 0;
  while (at < sql.length) {
    const char = sql[at] as string;
    const next = sql[at + 1];
    if (/\s/.test(char)) at += 1;
    else if (char === '-' && next === '-') {
      const end = sql.indexOf('\n', at);
      at = end < 0 ? sql.length : end + 1;
    } else if (char === '/' && next === '*') at = commentEnd(sql, at);
    else if (char === "'") at = quoted(sql, at, "'", false, tokens, 'string');
    else if ((char === 'e' || char === 'E') && next === "'")
      at = quoted(sql, at + 1, "'", true, tokens, 'string');
    else if (char === '"') at = quoted(sql, at, '"', false, tokens, 'identifier');
    else if (char === '$' && DOLLAR_TAG.test(sql.slice(at, at + 65)))
      at = dollarQuoted(sql, at, tokens);
    else if (WORD_START.test(char)) {
      let end = at + 1;
      while (end < sql.length && WORD_PART.test(sql[end] as string)) end += 1;
      tokens.push({ kind: 'word', text: sql.slice(at, end).toLowerCase() });
      at = end;
    } else {
      tokens.push({ kind: 'other', text: char });
      at += 1;
    }
  }
  return tokens;
}

/** Where a (nested) block comment starting at `at` ends. */
function commentEnd(sql: string, at: number): number {
  let depth = 0;
  let i = at;
  while (i < sql.length) {
    if (sql.startsWith('/*', i)) {
      depth += 1;
      i += 2;
    } else if (sql.startsWith('*/', i)) {
      depth -= 1;
      i += 2;
      if (depth === 0) return i;
    } else i += 1;
  }
  return sql.length;
}

/** Reads a quoted token from `at` (the opening quote); returns where it ends. */
function quoted(
  sql: string,
  at: number,
  quote: string,
  backslashes: boolean,
  tokens: SqlToken[],
  kind: 'string' | 'identifier',
): number {
  let value = '';
  let i = at + 1;
  while (i < sql.length) {
    const char = sql[i] as string;
    if (backslashes && char === '\\') {
      value += sql[i + 1] ?? '';
      i += 2;
    } else if (char === quote) {
      if (sql[i + 1] === quote) {
        value += quote;
        i += 2;
      } else {
        i += 1;
        break;
      }
    } else {
      value += char;
      i += 1;
    }
  }
  tokens.push({ kind, text: value });
  return i;
}

/** Reads `$tag$…$tag$` from `at`; returns where it ends. */
function dollarQuoted(sql: string, at: number, tokens: SqlToken[]): number {
  const tag = (DOLLAR_TAG.exec(sql.slice(at, at + 65)) as RegExpExecArray)[0];
  const start = at + tag.length;
  const end = sql.indexOf(tag, start);
  tokens.push({ kind: 'string', text: sql.slice(start, end < 0 ? sql.length : end) });
  return end < 0 ? sql.length : end + tag.length;
}
