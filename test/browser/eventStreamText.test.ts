/**
 * The event stream's text read chunk by chunk: the same messages however the text is cut, and a
 * message read only once its blank line came.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventStreamText } from '../../src/browser/eventStreamText.js';

const TEXT =
  'id: e.1.0\nevent: feed\ndata: [{"text":"a → b"}]\n\n' +
  ': keep-alive\n\n' +
  'event: clock\ndata: {"now":1}\n\n' +
  'id: e.2.1\nevent: skipped\ndata: {"events":3}\n\n';

const MESSAGES = [
  { id: 'e.1.0', event: 'feed', data: '[{"text":"a → b"}]' },
  { id: undefined, event: 'message', data: '' },
  { id: undefined, event: 'clock', data: '{"now":1}' },
  { id: 'e.2.1', event: 'skipped', data: '{"events":3}' },
];

describe('the event stream text', () => {
  it('gives the same messages however the text is cut into chunks', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: TEXT.length - 1 })), (cuts) => {
        const at = [0, ...[...cuts].sort((a, b) => a - b), TEXT.length];
        const text = new EventStreamText();
        const read = at.slice(1).flatMap((end, i) => text.take(TEXT.slice(at[i], end)));
        expect(read).toEqual(MESSAGES);
      }),
    );
  });

  it('reads no message before its blank line, so one cut by a drop is never read', () => {
    const text = new EventStreamText();
    expect(text.take('id: e.3.0\nevent: feed\ndata: [{"text":"cut')).toEqual([]);
    expect(text.take('\n')).toEqual([]);
    expect(text.take('\nevent: reset\ndata: {}\n')).toEqual([
      { id: 'e.3.0', event: 'feed', data: '[{"text":"cut' },
    ]);
  });

  it('joins the data lines of a message', () => {
    expect(new EventStreamText().take('event: feed\ndata: [1,\ndata: 2]\n\n')).toEqual([
      { id: undefined, event: 'feed', data: '[1,2]' },
    ]);
  });
});
