/**
 * Reading a record by a key that came from outside (a path, a body, a command): only the record's own
 * entries count, so ids such as `constructor` or `__proto__` find nothing instead of built-ins.
 */

/** `record[key]` if it is the record's own entry, else `undefined`. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
