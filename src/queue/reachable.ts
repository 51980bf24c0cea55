/**
 * Waiting for Redis with a limit: BullMQ's clients retry forever, which for a mistyped address
 * would look like a hang. One clear error instead.
 */

/** Resolves when `ready` does; rejects with "cannot reach Redis at URL" after `timeoutMs` (10 s). */
export async function reachable(
  url: string,
  ready: Promise<unknown>,
  timeoutMs = 10_000,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`cannot reach Redis at ${url}`)), timeoutMs);
  });
  try {
    await Promise.race([ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
