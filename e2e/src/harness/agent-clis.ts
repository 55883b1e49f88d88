import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentId } from '@agent-checkpoint/core';

/** How to start one of the pinned agent CLIs from this package's devDependencies. */
export interface AgentCli {
  readonly agent: AgentId;
  readonly packageName: string;
  readonly version: string;
  /** argv prefix: the executable and any fixed leading arguments. */
  readonly argv: readonly string[];
}

const require = createRequire(import.meta.url);

const PACKAGES: Record<AgentId, { name: string; bin: string; viaNode: boolean }> = {
  // A native binary (copied into bin/ by the package's postinstall); Node's version is irrelevant.
  claude: { name: '@anthropic-ai/claude-code', bin: 'bin/claude.exe', viaNode: false },
  gemini: { name: '@google/gemini-cli', bin: 'bundle/gemini.js', viaNode: true },
  // The npm launcher, which execs the platform's native binary (as `codex` does for users).
  codex: { name: '@openai/codex', bin: 'bin/codex.js', viaNode: true },
};

export function agentCli(agent: AgentId): AgentCli {
  const spec = PACKAGES[agent];
  const manifest = require.resolve(`${spec.name}/package.json`);
  const dir = path.dirname(manifest);
  const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  const bin = path.join(dir, spec.bin);
  return { agent, packageName: spec.name, version, argv: spec.viaNode ? [process.execPath, bin] : [bin] };
}

/** Absolute path of the probe hook script. */
export const PROBE_HOOK_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'probe-hook.mjs');

/** The e2e package directory (replaced by `/E2E` in recorded fixtures). */
export const E2E_PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
