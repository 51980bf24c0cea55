/** The page the server writes has every element the script finds by id, with the tag it expects. */
import { describe, expect, it } from 'vitest';
import { PAGE_IDS } from '../../src/browser/pageIds.js';
import { dashboardPage } from '../../src/dashboard/dashboardPage.js';

describe('the dashboard page', () => {
  it("has each element of the script's table once, of its tag", () => {
    const page = dashboardPage('', '/api/v2');
    const tags = new Map(
      [...page.matchAll(/<([a-z0-9]+)\b[^>]*\bid="([^"]+)"/g)].map((m) => [m[2], m[1]]),
    );
    for (const [id, tag] of Object.entries(PAGE_IDS)) {
      expect(tags.get(id), `#${id}`).toBe(tag);
      expect(page.split(`id="${id}"`), `#${id} once`).toHaveLength(2);
    }
  });
});
