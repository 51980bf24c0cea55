/**
 * Reading request bodies defensively: any JSON value may arrive, and a wrong shape is a 400 with a
 * message that names the field, never an exception.
 */
import { err, ok, type Result } from '../core/result.js';
import { reject, type Rejection } from '../domain/rejection.js';

/** A JSON object as a record, or `undefined` for any other value. */
export function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The nested object `body[key]`; an absent body or key gives `{}`. */
export function wrapped(body: unknown, key: string): Result<Record<string, unknown>, Rejection> {
  if (body === undefined || body === null) return ok({});
  const outer = asObject(body);
  if (outer === undefined)
    return err(reject('invalid_input', 'request body must be a JSON object'));
  const inner = outer[key];
  if (inner === undefined) return ok({});
  const object = asObject(inner);
  if (object === undefined) return err(reject('invalid_input', `"${key}" must be an object`));
  return ok(object);
}

/** An optional string field matching `pattern`. */
export function optionalString(
  object: Record<string, unknown>,
  key: string,
  path: string,
  pattern: RegExp,
  hint: string,
): Result<string | undefined, Rejection> {
  const value = object[key];
  if (value === undefined) return ok(undefined);
  if (typeof value !== 'string' || !pattern.test(value)) {
    return err(reject('invalid_input', `${path}.${key} must be ${hint}`));
  }
  return ok(value);
}
