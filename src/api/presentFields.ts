/**
 * Mapping optional body fields to optional command fields: a field the body leaves out is left out
 * of the command, not set to `undefined` (commands are exact about absent fields).
 */

/** `fields` without the ones that are `undefined`, typed as optional. */
export function presentFields<T extends Record<string, unknown>>(
  fields: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const present: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) present[key] = value;
  return present as { [K in keyof T]?: Exclude<T[K], undefined> };
}
