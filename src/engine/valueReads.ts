/**
 * How each kind of value is read back: one JavaScript expression per kind, compiled into the
 * per-shape decoders (shapeDecoder.ts) and into the reads of the generic path, so both read a kind
 * the same way.
 */
import { unzigzag, type ByteReader } from './byteStream.js';
import {
  FALSE,
  FLOAT,
  JSON_VALUE,
  KINDS,
  NULL,
  NUMBER,
  STR,
  TAGGED,
  TIME,
  TRUE,
  TYPE,
  U32,
  UNDEFINED,
  UUID,
} from './eventShapes.js';
import type { DecodeTables } from './shapeDecoder.js';

/** What a compiled decoder's reads call besides the reader and the tables. */
export const DECODE_HELPERS = { unzigzag };

/**
 * The expression that reads a value of `kind`, in a compiled decoder and (as `VALUE_READS`) in the
 * generic path; `undefined` for a kind it does not know. Operands are evaluated left to right, so the
 * reads keep their order in the bytes.
 */
export function compiledRead(kind: number, typeName: string | undefined): string | undefined {
  switch (kind) {
    case TYPE:
      return typeName === undefined ? 'undefined' : JSON.stringify(typeName);
    case STR:
      return 'tables.strings[input.varint()]';
    case U32:
      return 'input.varint()';
    case TIME:
      return 'at + unzigzag(input.varint())';
    case NUMBER:
      return 'tables.numbers[input.varint()]';
    case FLOAT:
      return 'input.float64()';
    case TRUE:
      return 'true';
    case FALSE:
      return 'false';
    case NULL:
      return 'null';
    case UNDEFINED:
      return 'undefined';
    case JSON_VALUE:
      return 'tables.parsed(input.varint())';
    case TAGGED:
      return `tables.strings[input.varint()] + "-" + input.varint()`;
    case UUID:
      return 'tables.uuids.of(input.word(), input.word(), input.word(), input.word())';
    default:
      return undefined;
  }
}

/** One value of a kind read outside a compiled decoder. */
export type ValueRead = (input: ByteReader, at: number, tables: DecodeTables) => unknown;

/**
 * The reads of the generic path, by kind, made from `compiledRead`'s expressions, so that both paths
 * read each kind by the one description (a type is its shape's name, which the path puts in itself).
 */
export const VALUE_READS: readonly (ValueRead | undefined)[] = Array.from(
  { length: KINDS },
  (_, kind) => {
    const read = kind === TYPE ? undefined : compiledRead(kind, undefined);
    if (read === undefined) return undefined;
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the one description of each read, compiled (shapeDecoder.ts)
    const factory = new Function(
      ...Object.keys(DECODE_HELPERS),
      `return (input, at, tables) => ${read};`,
    ) as (...helpers: unknown[]) => ValueRead;
    return factory(...Object.values(DECODE_HELPERS));
  },
);
