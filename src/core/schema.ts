/**
 * Schemas of user input (profile overrides, workloads, studies, fault profiles), declared once with
 * zod: the types, the defaults and the checks come from one declaration. Objects are strict at
 * every depth, and a refusal is one lowercase line naming the full path of what is wrong
 * (`profile.autoscaling: unknown field "minCu" (known: …)`, `poisson.session.cpu must be …`).
 * Parse once where input enters (a simulation, a workload, a file), never per event.
 */
import { z } from 'zod';
import { tryParseDuration, type Duration } from './duration.js';
import { tryParseInstant, type Instant } from './instant.js';
import { err, ok, type Result } from './result.js';

/** `T` read-only at every depth (functions as they are), as the public types are written. */
export type Immutable<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends object
    ? { readonly [K in keyof T]: Immutable<T[K]> }
    : T;

/**
 * A strict object: a key not in `shape` is refused, naming it and what is known (`unknown setting
 * "nope" (known: plan, regionId, …)`; `noun` says what the keys are).
 */
export function strictObject<S extends z.core.$ZodLooseShape>(shape: S, noun = 'field') {
  const known = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown ${noun} ${JSON.stringify(issue.keys[0])} (known: ${known})`
        : undefined,
  });
}

/** A value `predicate` accepts, typed `T`; anything else is refused with `message` (`must be …`). */
export function satisfying<T>(
  predicate: (value: unknown) => boolean,
  message: string | ((input: unknown) => string),
) {
  return z.custom<T>((value) => predicate(value), {
    error: typeof message === 'string' ? message : (issue) => message(issue.input),
  });
}

/** A whole number ≥ `min` (safe integer). */
export function whole(min: number, message: string) {
  return satisfying<number>((n) => Number.isSafeInteger(n) && (n as number) >= min, message);
}

/** A finite number ≥ 0. */
export function nonNegative(message = 'must be a finite number ≥ 0') {
  return satisfying<number>((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0, message);
}

/**
 * A value `input` accepts, read by `parse` into what the code uses; `parse`'s error is the refusal
 * (`by: Invalid duration "soon": …`).
 */
export function parsedWith<I, O>(input: z.ZodType<I>, parse: (value: I) => Result<O, string>) {
  return input.transform((value, context) => {
    const parsed = parse(value);
    if (parsed.ok) return parsed.value;
    context.issues.push({ code: 'custom', message: parsed.error, input: value });
    return z.NEVER;
  });
}

/** A duration as users write it (`'5m'`, `90_000`), parsed to milliseconds. */
export const durationMs = parsedWith(
  z.custom<Duration>(() => true),
  tryParseDuration,
);

/** An instant as users write it (ISO 8601 with a zone, or epoch ms), parsed to epoch ms. */
export const instantMs = parsedWith(
  z.custom<Instant>(() => true),
  tryParseInstant,
);

/**
 * Parses `value` with `schema`; a refusal is the first problem as one line, its path under `root`
 * (`profile`, `poisson`; `''` for none).
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  root: string,
): Result<z.output<S>, string> {
  const parsed = schema.safeParse(value, { error: plainMessage });
  return parsed.success ? ok(parsed.data) : err(describeIssues(parsed.error.issues, root));
}

/** The first of `issues` as one line: `root.path must …` or `root.path: problem`. */
function describeIssues(issues: readonly z.core.$ZodIssue[], root: string): string {
  const issue = firstIssue(issues, []);
  if (issue === undefined) return `${root || 'input'}: invalid`;
  const where = root + pathText(issue.path);
  const place = where.startsWith('.') ? where.slice(1) : where;
  if (place === '') return issue.message;
  return /^(must|is|may|repeats) /.test(issue.message)
    ? `${place} ${issue.message}`
    : `${place}: ${issue.message}`;
}

/**
 * The issue to report, with its full path: inside a union, the branch that got furthest (the
 * deepest problem, and one of the input's own type rather than "expected an object").
 */
function firstIssue(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[],
): z.core.$ZodIssue | undefined {
  const issue = issues[0];
  if (issue === undefined) return undefined;
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const candidates = issue.errors
      .map((branch) => firstIssue(branch, path))
      .filter((i): i is z.core.$ZodIssue => i !== undefined);
    const rank = (i: z.core.$ZodIssue) =>
      i.path.length * 2 + (i.code === 'invalid_type' && i.path.length === path.length ? 0 : 1);
    const best = candidates.reduce<z.core.$ZodIssue | undefined>(
      (a, b) => (a === undefined || rank(b) > rank(a) ? b : a),
      undefined,
    );
    if (best !== undefined) return best;
  }
  return { ...issue, path };
}

/** `.a.b[2]["POST /x"]` */
function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((key) =>
      typeof key === 'number'
        ? `[${key}]`
        : typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)
          ? `.${key}`
          : `[${JSON.stringify(String(key))}]`,
    )
    .join('');
}

const NOUNS: Readonly<Record<string, string>> = {
  object: 'an object',
  array: 'a list',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  function: 'a function',
};

/** Messages in the codebase's style for the issues a schema gives no message of its own. */
function plainMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? 'is required'
        : `must be ${NOUNS[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown field ${JSON.stringify(issue.keys[0])}`;
    case 'too_small':
      return `must have at least ${String(issue.minimum)}`;
    default:
      return undefined;
  }
}
