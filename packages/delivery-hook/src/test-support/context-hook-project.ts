import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHookSandbox, type HookSandbox } from './hook-sandbox.ts';

/** A plan of ten open tasks: large enough that working through all of it gets the estimate's warning. */
export const TEN_TASK_PLAN = ['# Plan: split the billing service', '', '## Tasks', ...Array.from({ length: 10 }, (_, i) => `- [ ] Move part ${i + 1} into \`src/billing/part-${i + 1}.ts\``)].join('\n');

/** A prompt that asks for the whole plan's work. */
export const LARGE_PROMPT = 'Work through PLAN.md: refactor every billing module and migrate all callers.';

/**
 * A sandbox (temp HOME, state, config) with a git repository holding the project configuration
 * `config` and {@link TEN_TASK_PLAN} as `PLAN.md`, for the context hooks run through the bundled bin.
 * The caller removes the sandbox.
 */
export function createContextHookProject(prefix: string, config: Record<string, unknown>): { sb: HookSandbox; repo: string } {
  const sb = createHookSandbox(prefix);
  const repo = join(sb.root, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: sb.env });
  writeFileSync(join(repo, '.agent-checkpoint.json'), JSON.stringify(config));
  writeFileSync(join(repo, 'PLAN.md'), TEN_TASK_PLAN);
  return { sb, repo };
}
