import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AGENT_IDS, type AgentId } from '@agent-checkpoint/core';

/**
 * Each agent's project memory file, read by the CLI at session start: Claude Code `CLAUDE.md`, Codex
 * `AGENTS.md`, Gemini CLI `GEMINI.md` (its default `context.fileName`), Copilot CLI `AGENTS.md`, Qwen Code `QWEN.md`,
 * Pi `AGENTS.md` (it also reads `CLAUDE.md`; pi-coding-agent 0.73.1 README).
 */
export const MEMORY_FILE_BY_AGENT: Readonly<Record<AgentId, string>> = {
  claude: 'CLAUDE.md',
  codex: 'AGENTS.md',
  gemini: 'GEMINI.md',
  // Copilot CLI 1.0.102 loads AGENTS.md at session start (checked against the loopback mock).
  copilot: 'AGENTS.md',
  // Qwen Code 0.24.4's default context file name.
  qwen: 'QWEN.md',
  // Pi 0.73.1 reads AGENTS.md (and CLAUDE.md) from the project.
  pi: 'AGENTS.md',
};

/** The memory file of `agent`, repo-relative. */
export function memoryFileFor(agent: AgentId): string {
  return MEMORY_FILE_BY_AGENT[agent];
}

/**
 * The memory files that exist at `root` (regular files or symlinks to them), the agent's own first,
 * then the others in a stable order. Never throws: unreadable entries are skipped.
 */
export async function findMemoryFiles(root: string, agent: AgentId): Promise<string[]> {
  // Agents may share a file (Codex and Copilot CLI both read AGENTS.md): each name once.
  const names = new Set([memoryFileFor(agent), ...AGENT_IDS.filter((a) => a !== agent).map(memoryFileFor)]);
  const found: string[] = [];
  for (const name of names) {
    try {
      if ((await stat(join(root, name))).isFile()) found.push(name);
    } catch {
      /* absent or unreadable */
    }
  }
  return found;
}
