/**
 * What the server sends is what the page reads: the server's feed items are the page's feed lines.
 * Checked by the compiler (`npm run typecheck` fails on a mismatch), not at run time.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { FeedLine } from '../../src/browser/wire.js';
import type { FeedItem } from '../../src/dashboard/feedItem.js';

describe('the dashboard wire', () => {
  it("carries the server's feed items as the page reads them", () => {
    expectTypeOf<FeedItem>().toExtend<FeedLine>();
  });
});
