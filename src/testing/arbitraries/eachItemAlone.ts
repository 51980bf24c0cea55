/**
 * Lists (the steps of a timeline) that, as they shrink, try each item alone before fast-check's own
 * candidates. fast-check shrinks a list toward shorter suffixes and one item fewer at a time, and
 * remembers what passed. In a timeline a step's effect depends on the steps before it: removing one
 * moves the later ones earlier, where a lock may still hold. So that alone could stop at a few steps
 * none of which can go one at a time, though one of them fails alone: 17 of 2,000 seeds of a faulty
 * client in the examples ended at 3-4 steps where 1 sufficed. An item tried alone keeps its own
 * shrink context, so it goes on shrinking as it would in the list (a step's gap toward 0, its action
 * toward a simpler one).
 */
import fc from 'fast-check';

/** Longest list whose steps are tried alone when it shrinks (each costs one run of the property). */
const MOST_TRIED_ALONE = 8;

/** The shrink context of a list: fast-check's own, and the steps already tried alone on this path. */
interface ListContext {
  readonly list: unknown;
  readonly triedAlone: ReadonlySet<object>;
}

/** The shrink context of a step tried alone: the step's own. */
interface AloneContext {
  readonly alone: unknown;
}

const isListContext = (context: unknown): context is ListContext =>
  typeof context === 'object' && context !== null && 'triedAlone' in context;

const isAloneContext = (context: unknown): context is AloneContext =>
  typeof context === 'object' && context !== null && 'alone' in context;

/** An item arbitrary that remembers the shrink context of every item it made, by the item. */
class RememberedItems<T extends object> extends fc.Arbitrary<T> {
  readonly contexts = new WeakMap<object, unknown>();
  readonly #items: fc.Arbitrary<T>;

  constructor(items: fc.Arbitrary<T>) {
    super();
    this.#items = items;
  }

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.#remember(this.#items.generate(random, biasFactor));
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.#items.canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.#items.shrink(value, context).map((shrunk) => this.#remember(shrunk));
  }

  #remember(made: fc.Value<T>): fc.Value<T> {
    this.contexts.set(made.value_, made.context);
    return made;
  }
}

/** A list of `items` whose shrinking tries each item alone first (see the file's header). */
class EachItemAlone<T extends object> extends fc.Arbitrary<T[]> {
  readonly #items: RememberedItems<T>;
  readonly #list: fc.Arbitrary<T[]>;
  readonly #minLength: number;

  constructor(items: fc.Arbitrary<T>, constraints: { minLength: number; maxLength: number }) {
    super();
    this.#items = new RememberedItems(items);
    this.#list = fc.array(this.#items, constraints);
    this.#minLength = constraints.minLength;
  }

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<T[]> {
    return this.#list.generate(random, biasFactor);
  }

  canShrinkWithoutContext(value: unknown): value is T[] {
    return this.#list.canShrinkWithoutContext(value);
  }

  shrink(value: T[], context: unknown): fc.Stream<fc.Value<T[]>> {
    if (isAloneContext(context)) return this.#shrinkAlone(value[0] as T, context.alone);
    const list = isListContext(context) ? context.list : context;
    const tried = isListContext(context) ? context.triedAlone : new Set<object>();
    const untried =
      value.length > 1 && value.length <= MOST_TRIED_ALONE
        ? value.filter((item) => !tried.has(item))
        : [];
    const triedAlone = untried.length === 0 ? tried : new Set([...tried, ...untried]);
    const shorter = this.#list
      .shrink(value, list)
      .map(
        (shrunk) =>
          new fc.Value(shrunk.value_, { list: shrunk.context, triedAlone } satisfies ListContext),
      );
    if (untried.length === 0) return shorter;
    const alone = untried.map(
      (item) =>
        new fc.Value([item], { alone: this.#items.contexts.get(item) } satisfies AloneContext),
    );
    return fc.stream(alone[Symbol.iterator]()).join(shorter);
  }

  /** A list of one item tried alone: empty (when allowed), then the item's own shrinks. */
  #shrinkAlone(item: T, context: unknown): fc.Stream<fc.Value<T[]>> {
    const empty = this.#minLength === 0 ? [new fc.Value<T[]>([], undefined)] : [];
    const simpler = this.#items
      .shrink(item, context)
      .map(
        (shrunk) => new fc.Value([shrunk.value_], { alone: shrunk.context } satisfies AloneContext),
      );
    return fc.stream(empty[Symbol.iterator]()).join(simpler);
  }
}

/**
 * A list of `items` (objects) of `minLength` to `maxLength` that, as it shrinks, tries each item
 * alone first (lists of up to 8, each item once on a shrink path); a list that must keep two or more
 * items shrinks as `fc.array` does.
 */
export function eachItemAlone<T extends object>(
  items: fc.Arbitrary<T>,
  constraints: { readonly minLength: number; readonly maxLength: number },
): fc.Arbitrary<T[]> {
  const { minLength, maxLength } = constraints;
  return minLength <= 1
    ? new EachItemAlone(items, { minLength, maxLength })
    : fc.array(items, { minLength, maxLength });
}
