/**
 * The page's key: taken from the URL fragment (`/#key=…`, never sent to the server) and kept for
 * the tab, or asked for with the key form when there is none or the server refused it.
 */
import type { PageElements } from './pageElements.js';

/** Where the tab keeps the key. */
const STORED = 'computesim-key';

/** The key from the fragment (which it then leaves), else the one the tab kept. */
export function takeKey(): string | undefined {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('key');
  if (fromHash) {
    keepKey(fromHash);
    // The key stays out of the address bar and the history.
    history.replaceState(null, '', location.pathname + location.search);
  }
  return fromHash || sessionStorage.getItem(STORED) || undefined;
}

/** Keeps `key` for the tab. */
export function keepKey(key: string): void {
  sessionStorage.setItem(STORED, key);
}

/** The key form, shown instead of the dashboard while the page has no key it can use. */
export class KeyPrompt {
  constructor(readonly page: Pick<PageElements, 'app' | 'key-form' | 'key-problem'>) {}

  /** Shows the form, saying why the key is asked for. */
  ask(message: string): void {
    this.page.app.hidden = true;
    this.page['key-form'].hidden = false;
    this.page['key-problem'].textContent = message;
  }

  /** Shows the dashboard. */
  close(): void {
    this.page['key-form'].hidden = true;
    this.page.app.hidden = false;
  }

  /** Whether the form is shown. */
  get asking(): boolean {
    return !this.page['key-form'].hidden;
  }
}
