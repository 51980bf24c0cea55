/**
 * Clearing an optional field of a state object. In the engine's working state the field is set to
 * `undefined` instead of deleted: deleting a property other than the last one V8 added turns the
 * object into a slow dictionary for good, and a compute's or a connection's fields come and go all
 * day (its pending state, its allocated size, a running statement). Snapshots leave `undefined`
 * fields out, so they show the field absent as before; on an immer draft (`stateAt`) the field is
 * deleted, as immer expects.
 */
import { isDraft } from 'immer';

/** The keys of `T` that may be absent. */
type OptionalKey<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

/** Clears `target[key]`: absent in every snapshot, `undefined` in the working state. */
export function clearField<T extends object>(target: T, key: OptionalKey<T>): void {
  if (isDraft(target)) delete target[key];
  else (target as Record<OptionalKey<T>, undefined>)[key] = undefined;
}
