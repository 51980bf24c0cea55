/**
 * The lock the clients of a database (and the data jobs of a branch) take in turn: first come,
 * first served, one holder at a time, and let go even when the work it guards fails.
 */
import { expect, it } from 'vitest';
import { ExclusiveLock } from '../../src/pg/exclusiveLock.js';

it('runs work holding the lock in the order asked, one at a time', async () => {
  const lock = new ExclusiveLock();
  const seen: string[] = [];
  const step = (name: string) =>
    lock.holding(async () => {
      seen.push(`${name} in`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(`${name} out`);
      return name;
    });
  expect(await Promise.all([step('a'), step('b'), step('c')])).toEqual(['a', 'b', 'c']);
  expect(seen).toEqual(['a in', 'a out', 'b in', 'b out', 'c in', 'c out']);
  expect(lock.held).toBe(false);
});

it('lets the lock go when the work fails, so the next holder runs', async () => {
  const lock = new ExclusiveLock();
  const failing = lock.holding(() => Promise.reject(new Error('no')));
  const next = lock.holding(() => Promise.resolve('next'));
  await expect(failing).rejects.toThrow('no');
  expect(await next).toBe('next');
  expect(lock.held).toBe(false);
});
