import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // managed-file tests write real files with atomic renames; generous on a loaded 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
