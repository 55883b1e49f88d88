import { defineConfig } from 'vitest/config';

// Real CLIs are heavy (Gemini starts a large Node bundle twice; the machine has 2 cores shared
// with other work): run test files one at a time, with generous per-test deadlines. Every wait
// inside a test has its own, shorter deadline, so a hang fails with a precise message first.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The route tests run the bundled bins of delivery-hook and delivery-tmux: build them first.
    globalSetup: ['./vitest.global-setup.ts'],
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
});
