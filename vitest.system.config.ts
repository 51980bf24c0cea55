/**
 * `npm run test:system`: the tests that run programs from the system (redis-server, psql, chromium)
 * or take minutes of wall time. Where a program is missing its tests skip with a reason, except
 * under CI=true, where the run fails naming the Debian package to install.
 */
import { defineConfig } from 'vitest/config';
import { SYSTEM_TEST_GLOBS } from './test/tiers/systemTests.js';
import { SHARED_SETTINGS } from './test/tiers/sharedSettings.js';

export default defineConfig({
  test: {
    include: [...SYSTEM_TEST_GLOBS],
    globalSetup: ['test/tiers/systemTierSetup.ts'],
    reporters: ['default', './test/tiers/skipReasons.ts'],
    ...SHARED_SETTINGS,
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
