/**
 * Settings both tiers' configurations share. Worker threads: one per core, with modules shared by
 * the files a worker runs; vitest's default leaves a core free, which on a 2-core machine runs every
 * file one after another though most of them wait on sockets and child processes, and re-importing
 * the module graph for each file cost more than any test (docs/contributing.md has the figures).
 * Polls (`expect.poll`) wait up to 20 s: what a test polls for (a folder removed, a database closed)
 * is done by the server on its own time, which a loaded machine stretches well past vitest's 1 s.
 */
import { availableParallelism } from 'node:os';

/** The settings of both tiers. */
export const SHARED_SETTINGS = {
  pool: 'threads',
  maxWorkers: Math.max(2, availableParallelism()),
  isolate: false,
  expect: { poll: { timeout: 20_000 } },
} as const;
