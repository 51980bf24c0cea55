/** Work done once per key and shared, unless it fails: then the next caller makes it again. */
import { describe, expect, it } from 'vitest';
import { OnceEach } from '../../src/programs/onceEach.js';

describe('OnceEach', () => {
  it('makes once per key what every caller shares', async () => {
    const once = new OnceEach<string, number>();
    let made = 0;
    const make = () => Promise.resolve(++made);
    const first = once.get('a', make);
    expect(once.get('a', make)).toBe(first);
    expect(await first).toBe(1);
    expect(await once.get('a', make)).toBe(1);
    expect(await once.get('b', make)).toBe(2);
  });

  it('forgets a failure, so the next caller makes it again', async () => {
    const once = new OnceEach<string, string>();
    const failed = once.get('a', () => Promise.reject(new Error('does not compile')));
    await expect(failed).rejects.toThrow('does not compile');
    expect(await once.get('a', () => Promise.resolve('fixed'))).toBe('fixed');
  });
});
