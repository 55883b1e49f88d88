import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { findProjectRoot, type AgentId } from '@agent-checkpoint/core';
import { profileOf } from '../agents/profiles.ts';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The most recently written transcript of a session that ran in `cwd` (or its repository root), for
 * `explain` and `doctor` when no session id or path is given. The readers' `locateTranscript` needs
 * a session id; the agent's profile scans its session directory instead:
 *
 * - Claude Code: `<config dir>/projects/<cwd with non-alphanumerics as "-">/*.jsonl`;
 * - Gemini CLI: `~/.gemini/tmp/<basename or sha256 of the project root>/chats/session-*.json(l)`;
 * - Codex CLI: `$CODEX_HOME/sessions/**\/rollout-*.jsonl` whose `session_meta` names this cwd (the
 *   200 newest files are checked).
 *
 * Never throws; undefined when nothing is found.
 */
export async function findLatestTranscript(agent: AgentId, cwd: string, env: Env, homeDir?: string): Promise<string | undefined> {
  try {
    const dirs = await candidateDirs(cwd);
    const home = homeDir ?? (nonEmpty(env['HOME']) ?? homedir());
    return await profileOf(agent).findLatestTranscript({ env, home, cwd: resolve(cwd), dirs });
  } catch {
    return undefined;
  }
}

/**
 * The session id a transcript belongs to, as the hook would receive it in `session_id`: Claude's file
 * name, Codex's thread id at the end of the rollout name, Gemini's `sessionId` on the first line.
 */
export async function sessionIdOfTranscript(agent: AgentId, path: string): Promise<string | undefined> {
  return await profileOf(agent).sessionIdOfTranscript(path);
}

/** The cwd, its real path and its repository root (sessions are often started at the root). */
async function candidateDirs(cwd: string): Promise<string[]> {
  const absolute = resolve(cwd);
  const real = await realpath(absolute).catch(() => absolute);
  return [...new Set([absolute, real, findProjectRoot(absolute), findProjectRoot(real)])];
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
