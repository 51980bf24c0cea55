/**
 * A reply cut into whole messages whatever chunks it arrives in: nothing lost, nothing reordered,
 * every piece passed on ends where a message ends, and the transaction status read on the way is
 * the one the whole reply ends with.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lastTransactionStatus, ReplyFrames } from '../../src/pg/replyFrames.js';

function message(type: number, payload: readonly number[]): number[] {
  const length = payload.length + 4;
  return [
    type,
    length >>> 24,
    (length >>> 16) & 255,
    (length >>> 8) & 255,
    length & 255,
    ...payload,
  ];
}

const anyMessage = fc.oneof(
  fc.constantFrom('I', 'T', 'E').map((status) => message(0x5a, [status.charCodeAt(0)])),
  fc
    .tuple(fc.constantFrom(0x44, 0x43, 0x54, 0x45), fc.array(fc.nat(255), { maxLength: 40 }))
    .map(([type, payload]) => message(type, payload)),
);

describe('ReplyFrames', () => {
  it('passes every reply on whole, cut only at message ends, with the last status', () => {
    fc.assert(
      fc.property(
        fc.array(anyMessage, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(400), { maxLength: 8 }),
        (messages, cuts) => {
          const reply = Uint8Array.from(messages.flat());
          const ends = new Set<number>([0]);
          let at = 0;
          for (const m of messages) ends.add((at += m.length));
          const points = [...new Set(cuts.map((c) => c % (reply.length + 1)))].sort(
            (a, b) => a - b,
          );
          const frames = new ReplyFrames();
          const out: number[] = [];
          let previous = 0;
          for (const point of [...points, reply.length]) {
            const taken = frames.take(reply.subarray(previous, point));
            out.push(...taken);
            expect(ends.has(out.length)).toBe(true);
            previous = point;
          }
          expect(Uint8Array.from(out)).toEqual(reply);
          expect(frames.status).toBe(lastTransactionStatus(reply));
        },
      ),
    );
  });

  it('keeps a message split inside its header until the rest comes', () => {
    const ready = Uint8Array.from(message(0x5a, ['T'.charCodeAt(0)]));
    const frames = new ReplyFrames();
    expect(frames.take(ready.subarray(0, 2))).toHaveLength(0);
    expect(frames.take(ready.subarray(2, 4))).toHaveLength(0);
    expect(frames.status).toBeUndefined();
    expect([...frames.take(ready.subarray(4))]).toEqual([...ready]);
    expect(frames.status).toBe('T');
  });
});
