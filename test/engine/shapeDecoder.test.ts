/**
 * Compiled shape decoders: on random events they give what the generic decoder gives (values, kinds
 * and key order), including keys an object literal must not take as they are; and the UUID texts a
 * reader remembers are the texts of the words asked for.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter, FlatBytes } from '../../src/engine/byteStream.js';
import { EventCodec } from '../../src/engine/eventCodec.js';
import { shapeDecoder } from '../../src/engine/shapeDecoder.js';
import { uuidText } from '../../src/core/uuidWords.js';
import { UuidTexts } from '../../src/engine/uuidTexts.js';

const valueArb = fc.oneof(
  fc.string(),
  fc.uuid({ version: 4 }),
  fc.constantFrom('c-0', 'c-12', 'ep-4294967295', 'c-00', 'abcde-1'),
  fc.integer(),
  fc.nat(),
  fc.double(),
  fc.constantFrom(0, -0, 2 ** 40, Number.MAX_SAFE_INTEGER, 0.25, Infinity, Number.NaN),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Keys a compiled decoder embeds in its source: quotes, escapes, digits, and the unsafe ones. */
const keyArb = fc.oneof(
  fc.string({ minLength: 1, maxLength: 6 }),
  fc.constantFrom('__proto__', 'constructor', '0', '12', 'a"b', 'a\\b', '\u2028', '${x}', '*/'),
);

/** An event built key by key, so `__proto__` is an own key like any other. */
const eventArb = fc
  .tuple(
    fc.option(fc.constantFrom('A', 'B'), { nil: undefined }),
    fc.array(fc.tuple(keyArb, valueArb), { maxLength: 8 }),
  )
  .map(([type, entries]) => {
    const event: Record<string, unknown> = {};
    if (type !== undefined) event['type'] = type;
    for (const [key, value] of entries)
      Object.defineProperty(event, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return event;
  });

/** The same value: identical, or (a JSON value) equal as JSON. */
function same(a: unknown, b: unknown): boolean {
  return Object.is(a, b) || JSON.stringify(a) === JSON.stringify(b);
}

describe('compiled shape decoders', () => {
  it('decode every event as the generic decoder does: values, kinds and key order', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { minLength: 1, maxLength: 40 }), (events) => {
        const codec = new EventCodec();
        const out = new ByteWriter();
        const encoded = events.map((event, seq) => {
          const at = 1_000 * seq;
          const start = out.length;
          const shape = codec.encode(event, at, out);
          return { shape, start, at, seq };
        });
        const bytes = new FlatBytes(out.view().slice());
        // Twice: the first decode of a shape compiles its decoder, the second reuses it.
        for (let round = 0; round < 2; round++)
          for (const { shape, start, at, seq } of encoded) {
            const compiled = codec.decode(shape, new ByteReader(bytes, start), at, seq);
            const generic = codec.decodeGenerically(shape, new ByteReader(bytes, start), at, seq);
            expect(Object.keys(compiled)).toEqual(Object.keys(generic));
            expect(Object.getPrototypeOf(compiled)).toBe(Object.prototype);
            for (const key of Object.keys(generic))
              expect(same(compiled[key], generic[key])).toBe(true);
            const original = events[seq] as Record<string, unknown>;
            expect(Object.keys(compiled)).toEqual([
              ...Object.keys(original).filter((key) => key !== 'at' && key !== 'seq'),
              'at',
              'seq',
            ]);
            for (const key of Object.keys(original))
              if (key !== 'at' && key !== 'seq')
                expect(same(compiled[key], original[key])).toBe(true);
          }
      }),
      { numRuns: 300 },
    );
  });

  it('remember UUID texts without mixing up UUIDs that share a slot', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(4), fc.nat(0xffffffff), fc.nat(0xffffffff), fc.nat(0xffffffff)), {
          maxLength: 200,
        }),
        (uuids) => {
          const texts = new UuidTexts();
          // First words of few values: the same slots, again and again.
          for (const [a, b, c, d] of uuids) {
            const text = texts.of(a * 1024, b, c, d);
            expect(text).toBe(uuidText(a * 1024, b, c, d));
            expect(text).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
          }
        },
      ),
    );
  });
});

describe('shapeDecoder', () => {
  it('hands a decoder only to callers reading values the way it was compiled for', () => {
    const shape = { keys: ['type', 'n'], kinds: [0, 1], typeName: 'Counted' };
    const input = new ByteReader(new FlatBytes(new Uint8Array(0)), 0);
    const tables = { strings: [], numbers: [], parsed: () => undefined, uuids: new UuidTexts() };
    const read = (answer: number) => (kind: number) => (kind === 0 ? '"Counted"' : String(answer));
    const seven = shapeDecoder(shape, read(7), {});
    const eight = shapeDecoder(shape, read(8), {});
    expect(seven?.(input, 1, 2, tables)).toEqual({ type: 'Counted', n: 7, at: 1, seq: 2 });
    expect(eight?.(input, 1, 2, tables)).toEqual({ type: 'Counted', n: 8, at: 1, seq: 2 });
  });
});
