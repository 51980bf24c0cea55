/**
 * The elements of the dashboard page the script works with: each one's id and tag, as the page
 * (`src/dashboard/dashboardPage.ts`) writes them. test/browser/pageIds.test.ts checks the page
 * against this table.
 */

/** Id → tag name of every element the script finds by id. */
export const PAGE_IDS = {
  'key-form': 'form',
  'key-input': 'input',
  'key-problem': 'p',
  app: 'div',
  link: 'span',
  clock: 'span',
  since: 'span',
  mode: 'span',
  events: 'span',
  pause: 'button',
  step: 'button',
  by: 'input',
  advance: 'button',
  'advance-5m': 'button',
  idle: 'button',
  speed: 'select',
  download: 'button',
  status: 'span',
  'lanes-up': 'button',
  'lanes-down': 'button',
  'lane-range': 'span',
  lanes: 'figure',
  cu: 'figure',
  activity: 'figure',
  operations: 'figure',
  metrics: 'div',
  project: 'select',
  feed: 'ol',
} as const;

/** The id of an element of `PAGE_IDS`. */
export type PageId = keyof typeof PAGE_IDS;
