/**
 * The queue's packages, BullMQ and its Redis client ioredis: optional, loaded when a command is
 * given `--queue`, so that nothing else needs them installed.
 */
import type * as Bullmq from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_FEATURE } from '../packages/optionalFeatures.js';
import { loadOptional } from '../packages/optionalPackage.js';

/** BullMQ; rejects with a `MissingPackageError` when it is not installed. */
export function loadBullmq(): Promise<typeof Bullmq> {
  return loadOptional(QUEUE_FEATURE, 'bullmq', () => import('bullmq'));
}

/** ioredis's client; rejects with a `MissingPackageError` when it is not installed. */
export function loadIoredis(): Promise<{ readonly Redis: typeof Redis }> {
  return loadOptional(QUEUE_FEATURE, 'ioredis', () => import('ioredis'));
}
