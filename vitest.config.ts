/** Test runner configuration: every test under test/, run in Node worker threads. */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'threads',
    testTimeout: 60_000,
    // Hooks that stop servers remove their branch databases (tens of MB each) too.
    hookTimeout: 60_000,
  },
});
