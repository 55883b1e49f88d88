import { expect } from 'vitest';
import { runHookBundle } from './run-hook-bundle.ts';

/**
 * Trust the repository's `.agent-checkpoint.json` with the real bin (`agent-checkpoint-hook trust`), as
 * a user does before a project file's commands or write paths (runTests, directExecution,
 * handoff.dir) may apply. Call it after the last write of the file: any edit needs trusting again.
 */
export async function trustProjectConfig(repo: string, env: Readonly<Record<string, string | undefined>>): Promise<string> {
  const result = await runHookBundle({ args: ['trust'], env, cwd: repo });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}
