/**
 * Command-line parsing shared by the commands: node's `parseArgs` in strict mode, with every mistake
 * turned into a `UsageError` (exit code 2) that says what was wrong.
 */
import { parseArgs } from 'node:util';
import { tryParseDuration, type Duration } from '../core/duration.js';

/** The command line was wrong: exit code 2. */
export class UsageError extends Error {}

/** The option declarations `parseArgs` takes. */
export type OptionSpec = Record<
  string,
  { readonly type: 'string' | 'boolean'; readonly multiple?: boolean; readonly short?: string }
>;

/** What `parseCommand` gives: parsed values and positionals, and whether help was asked for. */
export type ParsedCommand<O extends OptionSpec> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
> & { readonly help: boolean };

/**
 * Parses `argv` with `options`, requiring exactly `positionals` (named in `expected`; `'some'`: one
 * or more). `--help` or `-h` anywhere asks for the command's help instead.
 */
export function parseCommand<O extends OptionSpec>(
  argv: readonly string[],
  options: O,
  positionals: number | 'some',
  expected: string,
): ParsedCommand<O> {
  const help = argv.includes('--help') || argv.includes('-h');
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.filter((arg) => arg !== '--help' && arg !== '-h'),
      options,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    if (help) return { values: {}, positionals: [], help: true } as unknown as ParsedCommand<O>;
    throw new UsageError(usageProblem(error as NodeJS.ErrnoException, options), { cause: error });
  }
  if (help) return { ...parsed, help: true };
  if (positionals === 'some') {
    if (parsed.positionals.length === 0) throw new UsageError(`expected ${expected}`);
    return { ...parsed, help: false };
  }
  if (parsed.positionals.length < positionals) throw new UsageError(`expected ${expected}`);
  if (parsed.positionals.length > positionals)
    throw new UsageError(`unexpected argument "${parsed.positionals[positionals]}"`);
  return { ...parsed, help: false };
}

/** A whole number option, or a usage error naming the flag. */
export function wholeNumber(flag: string, text: string, min = Number.MIN_SAFE_INTEGER): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(value) || value < min)
    throw new UsageError(
      `${flag} must be a whole number${min > Number.MIN_SAFE_INTEGER ? ` ≥ ${min}` : ''}, got "${text}"`,
    );
  return value;
}

/** A duration option (`90s`, `1h30m`, `7d`), or a usage error naming the flag. */
export function durationOption(flag: string, text: string): Duration {
  const parsed = tryParseDuration(text);
  if (!parsed.ok) throw new UsageError(`${flag}: ${parsed.error}`);
  return text;
}

/**
 * What was wrong, in one line: an unknown option named with the nearest known one and where the
 * options are listed (node's own message suggests quoting it as a positional), else node's message.
 */
function usageProblem(error: NodeJS.ErrnoException, options: OptionSpec): string {
  const unknown = /^Unknown option '([^']+)'/.exec(error.message)?.[1];
  if (error.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || unknown === undefined) return error.message;
  const known = Object.keys(options).map((name) => `--${name}`);
  const nearest = known
    .map((name) => ({ name, distance: editDistance(unknown, name) }))
    .filter(({ distance }) => distance <= 2)
    .sort((a, b) => a.distance - b.distance)[0];
  const hint = nearest === undefined ? '' : ` (did you mean ${nearest.name}?)`;
  return `unknown option ${unknown}${hint}; --help lists the options`;
}

/** How many single-character edits turn `a` into `b` (Levenshtein). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length] as number;
}
