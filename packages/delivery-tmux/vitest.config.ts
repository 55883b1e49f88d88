import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Tests drive real tmux servers and child processes; they wait on screen conditions with
    // deadlines, which can take a few seconds on a loaded machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
