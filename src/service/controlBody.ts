/**
 * The bodies of the control routes, each declared once with zod: a strict object of the fields its
 * route takes, each parsed to what the handler uses (a duration to milliseconds, a clock mode). No
 * body reads as `{}`; `null` is a value sent, not an absent body. A refusal is a 400 that names the
 * field (`by: Invalid duration "soon": …`, `unknown field "extra" (expected "mode")`).
 */
import { z } from 'zod';
import { tryParseDuration, type Duration } from '../core/duration.js';
import { err, ok, type Result } from '../core/result.js';
import { parsedWith, parseInput, satisfying } from '../core/schema.js';
import { errorAnswer, type Answer } from './errorTable.js';

/** The body of a route taking `shape`'s fields, each optional unless its schema requires it. */
export function controlBody<S extends z.core.$ZodLooseShape>(shape: S) {
  const fields = Object.keys(shape)
    .map((key) => JSON.stringify(key))
    .join(', ');
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys')
        return `unknown field ${JSON.stringify(issue.keys[0])} (${fields === '' ? 'this route takes no body' : `expected ${fields}`})`;
      if (issue.code === 'invalid_type')
        return `the body must be a JSON object${fields === '' ? ' or empty' : ` with ${fields}, or empty`}, got ${kindOf(issue.input)}`;
      return undefined;
    },
  });
}

/** The body of a route that takes none: nothing, or `{}`. */
export const NO_BODY = controlBody({});

/** A duration field (`"5m"`, `"1h30m"`, or milliseconds), parsed to milliseconds. */
export const durationField = parsedWith(
  satisfying<Duration>(
    (value) => typeof value === 'string' || typeof value === 'number',
    (input) =>
      input === undefined ? 'is required' : "must be a duration such as '5m', or milliseconds",
  ),
  tryParseDuration,
);

/** `body` as `schema` reads it, or the 400 refusing it. */
export function parseControlBody<B>(schema: z.ZodType<B>, body: unknown): Result<B, Answer> {
  const parsed = parseInput(schema, body === undefined ? {} : body, '');
  return parsed.ok ? ok(parsed.value) : err(errorAnswer('invalid_input', parsed.error));
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}
