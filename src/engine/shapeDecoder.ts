/**
 * Decoders compiled per event shape. A shape's keys and value kinds never change, so its events can
 * be rebuilt by one function that reads the values and returns a single object literal: no loop, no
 * switch per value, no property added one by one (each of which moves the object to a new hidden
 * class). The codec says how each kind is read (a JavaScript expression); this module only embeds
 * the keys safely and builds and caches the functions.
 */
import type { ByteReader } from './byteStream.js';
import type { UuidTexts } from './uuidTexts.js';

/** What a compiled decoder reads a codec's tables through. */
export interface DecodeTables {
  readonly strings: readonly string[];
  readonly numbers: readonly number[];
  /** The parsed, frozen JSON value of a string id. */
  readonly parsed: (id: number) => unknown;
  /** The texts of packed UUIDs. */
  readonly uuids: UuidTexts;
}

/** Rebuilds one event of a shape from its values at `input`: the keys in order, then `at` and `seq`. */
export type ShapeDecoder = (
  input: ByteReader,
  at: number,
  seq: number,
  tables: DecodeTables,
) => Record<string, unknown>;

/**
 * Keys an object literal cannot take as they are: `__proto__` would set the prototype, and `at` and
 * `seq` are written last by the decoder itself (the generic path keeps such a key's first place).
 */
const UNSAFE_KEYS = new Set(['__proto__', 'at', 'seq']);

/** What a decoder is compiled from: a shape's keys in order, its value kinds and its type. */
export interface DecodedShape {
  readonly keys: readonly string[];
  readonly kinds: readonly number[];
  readonly typeName?: string;
}

/** How a value of `kind` is read: a JavaScript expression (`undefined`: not in compiled code). */
export type ReadOf = (kind: number, typeName: string | undefined) => string | undefined;

/** A shape compiled so far, and its decoder (`null`: the generic path decodes it). */
interface Compiled {
  readonly keys: readonly string[];
  readonly kinds: readonly number[];
  readonly decoder: ShapeDecoder | null;
}

/**
 * Compiled decoders by type, then by keys and kinds, shared by every codec of the process (a
 * decoder holds no state, and each simulation's log would otherwise compile the same few dozen).
 * Every log looks up each of its shapes once, right after a run has filled the caches with other
 * things: comparing a few short arrays of interned keys touches less memory than a map lookup per
 * key or building and hashing a text key.
 * Bounded per type, so a process that reads logs of ever new shapes does not grow it without end:
 * past it, new shapes decode generically. Kept per `readOf`, the reads the decoders were compiled
 * with: a decoder found for one set of reads is never handed to a caller with another.
 */
const byReads = new WeakMap<ReadOf, Map<string | undefined, Compiled[]>>();
const MAX_SHAPES_PER_TYPE = 64;

/**
 * The decoder of `shape`, whose value of kind `k` is read by the expression `readOf(k, typeName)`
 * over `input` (a ByteReader), `at`, `tables` (see `DecodeTables`) and the names in `helpers`
 * (`undefined`: a kind only the generic path knows). `undefined` when the generic path must decode
 * the shape (such a kind, an unsafe key, or too many shapes of its type).
 */
export function shapeDecoder(
  shape: DecodedShape,
  readOf: ReadOf,
  helpers: Readonly<Record<string, unknown>>,
): ShapeDecoder | undefined {
  let byType = byReads.get(readOf);
  if (byType === undefined)
    byReads.set(readOf, (byType = new Map<string | undefined, Compiled[]>()));
  let known = byType.get(shape.typeName);
  if (known === undefined) byType.set(shape.typeName, (known = []));
  for (let i = 0; i < known.length; i++) {
    const entry = known[i] as Compiled;
    if (sameShape(entry, shape)) return entry.decoder ?? undefined;
  }
  if (known.length >= MAX_SHAPES_PER_TYPE) return undefined;
  const decoder = compile(shape, readOf, helpers);
  known.push({ keys: shape.keys.slice(), kinds: shape.kinds.slice(), decoder });
  return decoder ?? undefined;
}

function sameShape(entry: Compiled, shape: DecodedShape): boolean {
  const keys = shape.keys;
  const kinds = shape.kinds;
  if (entry.keys.length !== keys.length) return false;
  for (let i = 0; i < keys.length; i++)
    if (entry.kinds[i] !== kinds[i] || entry.keys[i] !== keys[i]) return false;
  return true;
}

function compile(
  shape: DecodedShape,
  readOf: ReadOf,
  helpers: Readonly<Record<string, unknown>>,
): ShapeDecoder | null {
  let fields = '';
  for (let i = 0; i < shape.keys.length; i++) {
    const key = shape.keys[i] as string;
    const read = readOf(shape.kinds[i] as number, shape.typeName);
    if (UNSAFE_KEYS.has(key) || read === undefined) return null;
    fields += `${JSON.stringify(key)}: ${read}, `;
  }
  const names = Object.keys(helpers);
  // The helpers are bound once here, so the decoder itself is a plain function of its arguments.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a decoder compiled per event shape: its worth is in docs/performance.md
  const factory = new Function(
    ...names,
    `return function decodeShape(input, at, seq, tables) { return { ${fields}at: at, seq: seq }; };`,
  ) as (...values: unknown[]) => ShapeDecoder;
  return factory(...names.map((name) => helpers[name]));
}
