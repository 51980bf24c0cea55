import { describe, expect, it } from 'vitest';
import { isEmpty } from '../../src/core/isEmpty.js';

describe('isEmpty', () => {
  it('is true only for a record with no own enumerable entries', () => {
    expect(isEmpty({})).toBe(true);
    expect(isEmpty({ a: undefined })).toBe(false);
    const emptied: Record<string, true> = { x: true };
    delete emptied['x'];
    expect(isEmpty(emptied)).toBe(true);
    // Entries inherited through a prototype are not the record's own.
    expect(isEmpty(Object.create({ inherited: 1 }) as object)).toBe(true);
    expect(isEmpty(Object.defineProperty({}, 'hidden', { value: 1, enumerable: false }))).toBe(
      true,
    );
  });
});
