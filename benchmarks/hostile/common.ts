/**
 * The small things every piece of the hostile benchmark uses: sizes, waits (with a deadline or
 * without), and errors, counts and memory in a few words.
 */

/** Bytes in a mebibyte. */
export const MB = 2 ** 20;
/** Bytes in a gibibyte. */
export const GIB = 2 ** 30;

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds since `started` (a `performance.now()`). */
export const secondsSince = (started: number) => (performance.now() - started) / 1000;

/** `work`, or a rejection saying what did not answer within `ms`. */
export async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A Postgres error (or any error) in a few words: its SQLSTATE and message. */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: string }).code;
  return code === undefined ? error.message : `${code} "${error.message}"`;
}

/** Counts of each distinct text, as `3 × a, 1 × b`. */
export function tally(texts: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
  return [...counts].map(([text, count]) => `${count} × ${text}`).join('; ') || 'none';
}

/** `bytes` in whole megabytes, as `12 MB`. */
export const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
