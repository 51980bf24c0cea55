/**
 * SQL text cut into tokens as Postgres's lexer cuts it, for the front's few checks of what a client
 * asks (see `refusedStatements.ts`): words (keywords and plain identifiers, lower-cased), quoted
 * identifiers, string constants (`'…'`, `E'…'`, `$tag$…$tag$`, with their values), and the
 * punctuation that shapes a statement (`(`, `)`, `;`, `.`); comments (`--`, nested `/* … *\/`),
 * white space, numbers, commas and operators dropped. Not a parser: it knows
 * where a statement's words and strings are, and where statements end (`;`).
 */

/** One token. */
export type SqlToken =
  | { readonly kind: 'word'; readonly text: string }
  | { readonly kind: 'identifier'; readonly text: string }
  | { readonly kind: 'string'; readonly text: string }
  | { readonly kind: 'other'; readonly text: string };

/** Whether the character code `c` may start a word (a letter, `_`, or any non-ASCII). */
function isWordStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c >= 128;
}

/** Whether the character code `c` may go on a word (also digits and `$`). */
function isWordPart(c: number): boolean {
  return isWordStart(c) || (c >= 48 && c <= 57) || c === 36;
}

/** Spaces, tabs, newlines, form feeds. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

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
    const code = sql.charCodeAt(at);
    const next = sql.charCodeAt(at + 1);
    if (isSpace(code)) at += 1;
    else if (code === DASH && next === DASH) {
      const end = sql.indexOf('\n', at);
      at = end < 0 ? sql.length : end + 1;
    } else if (code === SLASH && next === STAR) at = commentEnd(sql, at);
    else if (code === QUOTE) at = quoted(sql, at, "'", false, tokens, 'string');
    else if ((code === LOWER_E || code === UPPER_E) && next === QUOTE)
      at = quoted(sql, at + 1, "'", true, tokens, 'string');
    else if (code === DOUBLE_QUOTE) at = quoted(sql, at, '"', false, tokens, 'identifier');
    else if (code === DOLLAR && DOLLAR_TAG.test(sql.slice(at, at + 65)))
      at = dollarQuoted(sql, at, tokens);
    else if (isWordStart(code)) {
      let end = at + 1;
      while (end < sql.length && isWordPart(sql.charCodeAt(end))) end += 1;
      tokens.push({ kind: 'word', text: sql.slice(at, end).toLowerCase() });
      at = end;
    } else {
      // Only the punctuation that shapes a statement is kept: numbers, commas and operators are
      // passed over (a value list of megabytes makes no tokens).
      if (SHAPING.has(code)) tokens.push({ kind: 'other', text: sql[at] as string });
      at += 1;
    }
  }
  return tokens;
}

const DASH = 45;
const SLASH = 47;
const STAR = 42;
const QUOTE = 39;
const DOUBLE_QUOTE = 34;
const DOLLAR = 36;
const LOWER_E = 101;
const UPPER_E = 69;

/** `(`, `)`, `;`, `.`: the characters kept as tokens. */
const SHAPING: ReadonlySet<number> = new Set([40, 41, 59, 46]);

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
  if (!backslashes) return quotedPlain(sql, at, quote, tokens, kind);
  let value = '';
  let i = at + 1;
  while (i < sql.length) {
    const char = sql[i] as string;
    if (char === '\\') {
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

/** A quoted token without backslash escapes (a doubled quote is one), read a run at a time. */
function quotedPlain(
  sql: string,
  at: number,
  quote: string,
  tokens: SqlToken[],
  kind: 'string' | 'identifier',
): number {
  const parts: string[] = [];
  let i = at + 1;
  for (;;) {
    const close = sql.indexOf(quote, i);
    if (close < 0) {
      parts.push(sql.slice(i));
      i = sql.length;
      break;
    }
    if (sql[close + 1] === quote) {
      parts.push(sql.slice(i, close + 1));
      i = close + 2;
    } else {
      parts.push(sql.slice(i, close));
      i = close + 1;
      break;
    }
  }
  tokens.push({ kind, text: parts.join('') });
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
