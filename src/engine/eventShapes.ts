/**
 * The vocabulary of the compact log: the kinds a value can be stored as, and the shapes and tables
 * a codec learns and hands on to the readers of a streamed log.
 */

/** A string interned in the table of strings (a varint id). */
export const STR = 0;
/** A whole number below 2^32 (a varint). */
export const U32 = 1;
/** A whole number kept as its distance from the event's time. */
export const TIME = 2;
/** `true`, in the shape alone. */
export const TRUE = 3;
/** `false`, in the shape alone. */
export const FALSE = 4;
/** `null`, in the shape alone. */
export const NULL = 5;
/** `undefined`, in the shape alone. */
export const UNDEFINED = 6;
/** Any other object: its JSON interned in the table of strings. */
export const JSON_VALUE = 7;
/** A UUID packed into four 32-bit words. */
export const UUID = 8;
/** The leading string `type`: its shape's `typeName`, nothing per event. */
export const TYPE = 9;
/** An id like `c-1234`: its prefix interned, then its number. */
export const TAGGED = 10;
/** A number interned in the table of numbers. */
export const NUMBER = 11;
/** A float64 kept as its eight bytes (-0, or once the table of numbers is full). */
export const FLOAT = 12;
/** How many kinds there are. */
export const KINDS = 13;

/**
 * The keys (in order) and value kinds of a family of events; `at` and `seq` are kept apart. A leading
 * string `type` is part of the shape itself (`typeName`), so it costs no word per event.
 */
export interface Shape {
  readonly keys: readonly string[];
  readonly kinds: readonly number[];
  readonly typeName?: string;
}

/** The tables a codec learned (strings, numbers, shapes), or a stretch of them: what a streamed log writes before the events that use them. */
export interface CodecTables {
  readonly strings: readonly string[];
  readonly numbers: readonly number[];
  readonly shapes: readonly Shape[];
}
