/**
 * Which feature needs which optional package: the one list of them (docs/install.md shows it, a
 * test keeps the two the same). Everything else computesim needs, it installs.
 */
import type { OptionalFeature } from './optionalPackage.js';

/** Sweeps and fleets on a Redis queue, and the worker that takes their cells. */
export const QUEUE_FEATURE: OptionalFeature = {
  name: 'the Redis queue (--queue)',
  packages: ['bullmq', 'ioredis'],
};

/**
 * `serve`'s Postgres front: an embedded Postgres per branch database, Postgres over WebSocket for
 * the serverless driver, and a self-signed certificate for TLS when none is given.
 */
export const POSTGRES_FEATURE: OptionalFeature = {
  name: 'serve --pg-port',
  packages: ['@electric-sql/pglite', 'ws', 'selfsigned'],
};

/** `computesim/msw`'s SQL over HTTP, answered by an embedded Postgres per branch database. */
export const MSW_SQL_FEATURE: OptionalFeature = {
  name: 'SQL over HTTP in computesim/msw',
  packages: ['@electric-sql/pglite'],
};

/** Scenario, study and fleet files written in TypeScript, loaded by Node 20 through tsx. */
export const TYPESCRIPT_FEATURE: OptionalFeature = {
  name: 'a TypeScript scenario, study or fleet file',
  packages: ['tsx'],
};

/** Every optional feature, in the order docs/install.md lists them. */
export const OPTIONAL_FEATURES: readonly OptionalFeature[] = [
  TYPESCRIPT_FEATURE,
  POSTGRES_FEATURE,
  MSW_SQL_FEATURE,
  QUEUE_FEATURE,
];
