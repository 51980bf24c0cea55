/**
 * Checking Redis before the queue objects connect: BullMQ's clients retry forever, and close only
 * once connected, which for a mistyped address would look like a hang. One clear error instead.
 */
import type { RedisAddress } from './cellQueue.js';
import { loadIoredis } from './queuePackages.js';

/**
 * Resolves once Redis at `address` answers a PING; else rejects with "cannot reach Redis at URL"
 * (or a `MissingPackageError` when ioredis is not installed).
 */
export async function reachable(
  url: string,
  address: RedisAddress,
  timeoutMs = 10_000,
): Promise<void> {
  const { Redis } = await loadIoredis();
  const probe = new Redis({
    ...address,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  let cause: Error | undefined;
  probe.on('error', (error: Error) => (cause ??= error));
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    const reason = (cause ?? (error as Error)).message;
    throw new Error(`cannot reach Redis at ${url} (${reason})`, { cause: error });
  } finally {
    probe.disconnect();
  }
}
