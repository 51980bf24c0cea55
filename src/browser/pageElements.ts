/** The elements of the page the script works with, found once and typed by their tag. */
import { PAGE_IDS, type PageId } from './pageIds.js';

/** Each element of `PAGE_IDS`, as the DOM type of its tag. */
export type PageElements = {
  readonly [id in PageId]: HTMLElementTagNameMap[(typeof PAGE_IDS)[id]];
};

/** The elements of `PAGE_IDS` in `document`; throws naming one that is missing. */
export function pageElements(document: Document): PageElements {
  const found: Partial<Record<PageId, HTMLElement>> = {};
  for (const id of Object.keys(PAGE_IDS) as PageId[]) {
    const element = document.getElementById(id);
    if (element === null) throw new Error(`the page has no #${id}`);
    found[id] = element;
  }
  // Each one is of its tag: test/browser/pageIds.test.ts checks the page against PAGE_IDS.
  return found as PageElements;
}
