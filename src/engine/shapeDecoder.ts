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

/** A node of the tree of shapes compiled so far: a type, then each key and kind in order. */
interface ShapeNode {
  readonly next: Map<string, (ShapeNode | undefined)[]>;
  /** The decoder of the shape that ends here (`null`: decoded generically; unset: not compiled). */
  decoder?: ShapeDecoder | null;
}

/**
 * Compiled decoders by shape, shared by every codec of the process (a decoder holds no state, and
 * each simulation's log would otherwise compile the same few dozen). A tree rather than a map keyed
 * by text: a log's every shape is looked up once, and walking its keys (interned strings, their
 * hashes known) costs less than building and hashing a key. Bounded, so a process that reads logs
 * of ever new shapes does not grow it without end: past it, new shapes decode generically.
 */
const roots = new Map<string | undefined, ShapeNode>();
let nodes = 0;
const MAX_NODES = 1 << 16;

/**
 * The decoder of `shape`, whose value of kind `k` is read by the expression `readOf(k, typeName)`
 * over `input` (a ByteReader), `at`, `tables` (see `DecodeTables`) and the names in `helpers`
 * (`undefined`: a kind only the generic path knows). `undefined` when the generic path must decode
 * the shape (such a kind, an unsafe key, or no room left in the tree).
 */
export function shapeDecoder(
  shape: DecodedShape,
  readOf: (kind: number, typeName: string | undefined) => string | undefined,
  helpers: Readonly<Record<string, unknown>>,
): ShapeDecoder | undefined {
  const node = nodeOf(shape);
  if (node === undefined) return undefined;
  if (node.decoder === undefined) node.decoder = compile(shape, readOf, helpers);
  return node.decoder ?? undefined;
}

/** The tree's node of `shape`, added if new (`undefined` once the tree is full). */
function nodeOf(shape: DecodedShape): ShapeNode | undefined {
  let node: ShapeNode | undefined = roots.get(shape.typeName);
  if (node === undefined) {
    if (nodes >= MAX_NODES) return undefined;
    node = newNode();
    roots.set(shape.typeName, node);
  }
  for (let i = 0; i < shape.keys.length; i++) {
    const key = shape.keys[i] as string;
    const kind = shape.kinds[i] as number;
    let byKind: (ShapeNode | undefined)[] | undefined = node.next.get(key);
    if (byKind === undefined) node.next.set(key, (byKind = []));
    let child: ShapeNode | undefined = byKind[kind];
    if (child === undefined) {
      if (nodes >= MAX_NODES) return undefined;
      child = byKind[kind] = newNode();
    }
    node = child;
  }
  return node;
}

function newNode(): ShapeNode {
  nodes++;
  return { next: new Map() };
}

function compile(
  shape: DecodedShape,
  readOf: (kind: number, typeName: string | undefined) => string | undefined,
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
  const factory = new Function(
    ...names,
    `return function decodeShape(input, at, seq, tables) { return { ${fields}at: at, seq: seq }; };`,
  ) as (...values: unknown[]) => ShapeDecoder;
  return factory(...names.map((name) => helpers[name]));
}
