/**
 * `npm test`: the tests that need nothing but Node and npm packages, in Node worker threads. The
 * system tier (programs from the system, minutes of wall time) has its own configuration,
 * vitest.system.config.ts (`npm run test:system`).
 */
import { defineConfig } from 'vitest/config';
import { SYSTEM_TEST_GLOBS } from './test/tiers/systemTests.js';
import { SHARED_SETTINGS } from './test/tiers/sharedSettings.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...SYSTEM_TEST_GLOBS],
    globalSetup: ['test/tiers/unitTierSetup.ts'],
    ...SHARED_SETTINGS,
    testTimeout: 60_000,
    // Hooks that stop servers remove their branch databases (tens of MB each) too.
    hookTimeout: 60_000,
  },
});
