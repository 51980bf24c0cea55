/**
 * The narrator's words for durations: milliseconds below a second, seconds below a minute, then
 * whole units, so a long statement reads `20m`, not `1200000 ms`.
 */
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../src/model/events.js';
import { createNarrator } from '../../src/projection/narrator.js';

const statement = (lastingMs: number): SimEvent =>
  ({
    type: 'QueryStarted',
    at: 1_000,
    seq: 7,
    connectionId: 'c-1',
    projectId: 'p-1',
    endpointId: 'ep-1',
    until: 1_000 + lastingMs,
  }) as SimEvent;

describe('the narrator', () => {
  it.each([
    [250, '250 ms'],
    [3_900, '3.9 s'],
    [1_200_000, '20m'],
    [5_430_000, '1h30m30s'],
  ])('tells a statement of %i ms as lasting %s', (lastingMs, words) => {
    expect(createNarrator()(statement(lastingMs))).toBe(
      `connection c-1 runs a statement for ${words}`,
    );
  });
});
