/**
 * YAML parsed so that its keys and ASCII strings are one-byte strings in V8, whatever characters
 * the text holds elsewhere (the public schema has a few dashes and quotes past U+00FF).
 */
import { load } from 'js-yaml';

/** Characters a one-byte V8 string cannot hold. */
const WIDE = /[\u0100-\uffff]/;
const EVERY_WIDE = new RegExp(WIDE.source, 'g');

/** Stands for a wide character (then its UTF-16 code unit in 4 hex digits) while parsing. */
const MARKER = '\u00a7\u00a7u';

/**
 * Parses `text` as `js-yaml`'s `load` does. Why: a text with one character past U+00FF is a
 * two-byte string, every key the parser slices from it is one too, and V8 interns it for every equal
 * literal of the program, so each JSON body naming one of the schema's properties (`region_id`, …)
 * was built two-byte, then measured and written to the socket through node's slow UTF-8 paths
 * (docs/performance.md has the cost). The wide characters are parsed as markers and put back in the
 * strings that held them.
 */
export function loadOneByteYaml(text: string): unknown {
  if (!WIDE.test(text) || text.includes(MARKER)) return load(text);
  const marked = text.replace(
    EVERY_WIDE,
    (wide) => `${MARKER}${wide.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  // A replace keeps its subject's width: copied through Latin-1 bytes, the text is one-byte.
  const narrow = Buffer.from(marked, 'latin1').toString('latin1');
  return restore(load(narrow), new Set());
}

const MARKED = new RegExp(`${MARKER}([0-9a-f]{4})`, 'g');

/** `value` with every marker in its strings (keys too) back to the character it stands for. */
function restore(value: unknown, seen: Set<object>): unknown {
  if (typeof value === 'string')
    return value.includes(MARKER)
      ? value.replace(MARKED, (_, code: string) => String.fromCharCode(parseInt(code, 16)))
      : value;
  if (value === null || typeof value !== 'object' || seen.has(value)) return value;
  // An alias shares its anchor's node: restore each node once.
  seen.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restore(value[i], seen);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const restored = restore(key, seen) as string;
    const inner = restore(record[key], seen);
    if (restored === key) record[key] = inner;
    else {
      delete record[key];
      record[restored] = inner;
    }
  }
  return record;
}
