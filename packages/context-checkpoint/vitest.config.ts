import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // A hang bound, not a speed target (speed lives in `pnpm bench`): property tests here run real
    // shells, git and lock-contending processes hundreds of times, and on a loaded 2-core machine
    // vitest's 5 s default failed them at 6-19 s with nothing wrong.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
