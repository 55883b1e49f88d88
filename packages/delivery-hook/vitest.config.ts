import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Contract tests run the real bundled bin; build it once before any test file runs.
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
