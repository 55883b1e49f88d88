import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AgentId } from '@agent-checkpoint/core';
import { shellQuote } from '../mock/native-tool-calls.ts';

const require = createRequire(import.meta.url);

/**
 * The package directory of a workspace dependency. Their `exports` name only `.` (the TypeScript
 * source), so the directory is found from that entry (`<dir>/src/index.ts`).
 */
function packageDir(name: string): string {
  return path.dirname(path.dirname(require.resolve(name)));
}

/** The bundled bins under test: what users install, not the TypeScript sources. */
export const HOOK_BUNDLE = path.join(packageDir('@agent-checkpoint/delivery-hook'), 'dist', 'agent-checkpoint-hook.cjs');
export const TMUX_BUNDLE = path.join(packageDir('@agent-checkpoint/delivery-tmux'), 'dist', 'agent-checkpoint-tmux.mjs');

/** Fails with the command that fixes it when a bundle was not built. */
export function assertBundlesBuilt(): void {
  for (const [bundle, pkg] of [
    [HOOK_BUNDLE, '@agent-checkpoint/delivery-hook'],
    [TMUX_BUNDLE, '@agent-checkpoint/delivery-tmux'],
  ] as const) {
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`pnpm --filter ${pkg} build\` (turbo does it before \`pnpm test\`)`);
  }
}

/**
 * The hook command a user installs (README of delivery-hook): `node <abs>/agent-checkpoint-hook.cjs
 * <agent>`. `node` is the test's own Node: the sessions' PATH starts with its directory.
 */
export function realHookCommand(agent: AgentId): string {
  return `node ${shellQuote(HOOK_BUNDLE)} ${agent}`;
}

/** Codex `notify` argv of the tmux route: `["node", "<abs>/agent-checkpoint-tmux.mjs"]`. */
export function tmuxNotifyArgv(): string[] {
  return ['node', TMUX_BUNDLE];
}
