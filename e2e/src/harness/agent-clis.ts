import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentId } from '@agent-checkpoint/core';
import { completedCliInstall, defaultCliCacheRoot, ensureCliInstall, type CliInstallOutcome, type CliInstallSpec } from './agent-cli-install.ts';

/** How to start one of the pinned agent CLIs (installed on demand, see {@link ensureAgentClis}). */
export interface AgentCli {
  readonly agent: AgentId;
  readonly packageName: string;
  readonly version: string;
  /** argv prefix: the executable and any fixed leading arguments. */
  readonly argv: readonly string[];
}

/** Each agent's npm package, its entry file, and the product name the README's route table gives it. */
const PACKAGES: Record<AgentId, { name: string; bin: string; viaNode: boolean; title: string }> = {
  // A native binary (copied into bin/ by the package's postinstall); Node's version is irrelevant.
  claude: { name: '@anthropic-ai/claude-code', bin: 'bin/claude.exe', viaNode: false, title: 'Claude Code' },
  gemini: { name: '@google/gemini-cli', bin: 'bundle/gemini.js', viaNode: true, title: 'Gemini CLI' },
  // The npm launcher, which execs the platform's native binary (as `codex` does for users).
  codex: { name: '@openai/codex', bin: 'bin/codex.js', viaNode: true, title: 'Codex CLI' },
  // The npm loader, which runs the platform package's native binary (as `copilot` does for users).
  copilot: { name: '@github/copilot', bin: 'npm-loader.js', viaNode: true, title: 'GitHub Copilot CLI' },
  // The bundled CLI (declares Node >= 22; runs headless on Node 20, qwen-code.md).
  qwen: { name: '@qwen-code/qwen-code', bin: 'cli.js', viaNode: true, title: 'Qwen Code' },
  // 0.73.1, the last release under this name that runs on Node 20 (its successor
  // @earendil-works/pi-coding-agent 1.x needs Node >= 22.19).
  pi: { name: '@mariozechner/pi-coding-agent', bin: 'dist/cli.js', viaNode: true, title: 'Pi' },
};

/** One agent's pin in `e2e/agent-clis/package.json`, without installing anything. */
export interface PinnedAgentCli {
  readonly title: string;
  readonly packageName: string;
  readonly version: string;
}

/** The pinned version of every agent's CLI, as `e2e/agent-clis/package.json` states it. */
export function pinnedAgentClis(): Record<AgentId, PinnedAgentCli> {
  const pins = (JSON.parse(readFileSync(path.join(E2E_PACKAGE_DIR, 'agent-clis', 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
  const pinned = (agent: AgentId): PinnedAgentCli => {
    const { name, title } = PACKAGES[agent];
    const version = pins[name];
    if (version === undefined) throw new Error(`e2e/agent-clis/package.json pins no ${name}`);
    return { title, packageName: name, version };
  };
  return { claude: pinned('claude'), gemini: pinned('gemini'), codex: pinned('codex'), copilot: pinned('copilot'), qwen: pinned('qwen'), pi: pinned('pi') };
}

/** The e2e package directory (replaced by `/E2E` in recorded fixtures). */
export const E2E_PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The pinned CLIs: `e2e/agent-clis/package.json` + `package-lock.json` (exact versions, sha512
 * integrity of every tarball), installed by `npm ci` into a cache outside the repository. Only
 * Claude Code's postinstall runs (it places the native binary in `bin/claude.exe`); Gemini's
 * optional native addons (node-pty, keytar) stay unbuilt, as they were under pnpm.
 */
export function agentCliInstallSpec(cacheRoot: string = defaultCliCacheRoot()): CliInstallSpec {
  return {
    pinsDir: path.join(E2E_PACKAGE_DIR, 'agent-clis'),
    cacheRoot,
    entries: Object.values(PACKAGES).flatMap((spec) => [`${spec.name}/package.json`, `${spec.name}/${spec.bin}`]),
    postinstall: [['@anthropic-ai/claude-code', 'install.cjs']],
  };
}

/** Install the pinned CLIs unless an intact install is cached (the vitest global setup calls it). */
export function ensureAgentClis(log?: (line: string) => void): CliInstallOutcome {
  return ensureCliInstall(agentCliInstallSpec(), log);
}

export function agentCli(agent: AgentId): AgentCli {
  const spec = PACKAGES[agent];
  const installed = completedCliInstall(agentCliInstallSpec());
  if (installed === undefined) {
    throw new Error('the pinned agent CLIs are not installed: run `pnpm --filter @agent-checkpoint/e2e install-clis` (the e2e global setup does it)');
  }
  const dir = path.join(installed, 'node_modules', spec.name);
  const version = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  const bin = path.join(dir, spec.bin);
  return { agent, packageName: spec.name, version, argv: spec.viaNode ? [process.execPath, bin] : [bin] };
}

/** Absolute path of the probe hook script. */
export const PROBE_HOOK_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'probe-hook.mjs');
