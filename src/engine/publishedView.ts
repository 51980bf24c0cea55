/**
 * How a working object shows, in published snapshots, data the model keeps outside plain records
 * (the control plane's ended operations live in columns, not objects). Publishing copies such an
 * object's plain fields as usual, then lets its view define the fields it supplies, typically as
 * lazy accessors that build the record the first time someone reads it.
 */

/** The key a working object carries its view under (not enumerable, so no walk copies it). */
const PUBLISHED_VIEW: unique symbol = Symbol('computesim.publishedView');

/** What a working object adds to its published copies. */
export interface PublishedView {
  /**
   * Fields the view supplies. Publishing puts their plain published values in the new copy (an
   * earlier copy's, through `underlying`, where nothing changed: it never reads an earlier copy's
   * field itself, where reading may build a large record) before `define` replaces them.
   */
  readonly keys: ReadonlySet<string>;
  /** Defines the view's fields on `published`, a fresh copy not yet frozen. */
  define(published: Record<string, unknown>): void;
  /**
   * Whether a copy this view defined earlier still shows what it would define now, apart from the
   * plain values under its fields (which the walk compares itself, through `underlying`).
   */
  current(published: object): boolean;
  /** The plain published value a copy this view defined held under `key` before `define` ran. */
  underlying(published: object, key: string): unknown;
}

/** Attaches `view` to a working object (not enumerable: copies and walks never see it). */
export function attachPublishedView(working: object, view: PublishedView): void {
  Object.defineProperty(working, PUBLISHED_VIEW, { value: view, configurable: true });
}

/** The view a working object carries, if any. */
export function publishedViewOf(working: object): PublishedView | undefined {
  return (working as { [PUBLISHED_VIEW]?: PublishedView })[PUBLISHED_VIEW];
}
