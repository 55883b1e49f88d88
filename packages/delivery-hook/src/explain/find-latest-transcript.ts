import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { assertNever, findProjectRoot, type AgentId } from '@agent-checkpoint/core';
import { claudeConfigDir, claudeProjectSlug } from '@agent-checkpoint/transcript-claude';
import fg from 'fast-glob';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The most recently written transcript of a session that ran in `cwd` (or its repository root), for
 * `explain` and `doctor` when no session id or path is given. The readers' `locateTranscript` needs
 * a session id; this scans the agent's session directory instead:
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
    switch (agent) {
      case 'claude': {
        const projects = join(claudeConfigDir({ env, homeDir: home }), 'projects');
        return await newest(dirs.map((d) => `${fg.escapePath(claudeProjectSlug(d))}/*.jsonl`), projects);
      }
      case 'gemini': {
        const base = nonEmpty(env['GEMINI_CLI_HOME']) ?? home;
        const names = [...new Set(dirs.flatMap((d) => [basename(d), createHash('sha256').update(d).digest('hex')]))];
        return await newest(
          names.flatMap((n) => [`${fg.escapePath(n)}/chats/session-*.jsonl`, `${fg.escapePath(n)}/chats/session-*.json`]),
          join(base, '.gemini', 'tmp'),
        );
      }
      case 'codex': {
        const codexHome = nonEmpty(env['CODEX_HOME']) ?? join(home, '.codex');
        const files = await fg('sessions/**/rollout-*.jsonl', { cwd: codexHome, absolute: true, stats: true, suppressErrors: true, followSymbolicLinks: false });
        files.sort((a, b) => (b.stats?.mtimeMs ?? 0) - (a.stats?.mtimeMs ?? 0));
        for (const file of files.slice(0, 200)) {
          const sessionCwd = await rolloutCwd(file.path);
          if (sessionCwd !== undefined && dirs.includes(resolve(sessionCwd))) return file.path;
        }
        return undefined;
      }
      default:
        return assertNever(agent);
    }
  } catch {
    return undefined;
  }
}

/**
 * The session id a transcript belongs to, as the hook would receive it in `session_id`: Claude's file
 * name, Codex's thread id at the end of the rollout name, Gemini's `sessionId` on the first line.
 */
export async function sessionIdOfTranscript(agent: AgentId, path: string): Promise<string | undefined> {
  switch (agent) {
    case 'claude':
      return /^([A-Za-z0-9][A-Za-z0-9_-]*)\.jsonl$/.exec(basename(path))?.[1];
    case 'codex':
      return /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(basename(path))?.[1];
    case 'gemini': {
      const head = await readHead(path, 4096);
      const match = /"sessionId"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(head ?? '');
      return match?.[1] === undefined ? undefined : (JSON.parse(match[1]) as string);
    }
    default:
      return assertNever(agent);
  }
}

/** The cwd, its real path and its repository root (sessions are often started at the root). */
async function candidateDirs(cwd: string): Promise<string[]> {
  const absolute = resolve(cwd);
  const real = await realpath(absolute).catch(() => absolute);
  return [...new Set([absolute, real, findProjectRoot(absolute), findProjectRoot(real)])];
}

async function newest(patterns: string[], cwd: string): Promise<string | undefined> {
  const files = await fg(patterns, { cwd, absolute: true, stats: true, onlyFiles: true, dot: true, suppressErrors: true, followSymbolicLinks: false });
  files.sort((a, b) => (b.stats?.mtimeMs ?? 0) - (a.stats?.mtimeMs ?? 0) || b.path.localeCompare(a.path));
  return files[0]?.path;
}

/** `payload.cwd` of the rollout's `session_meta` line (it comes before the long instructions). */
async function rolloutCwd(path: string): Promise<string | undefined> {
  const head = await readHead(path, 8192);
  if (head === undefined || !head.includes('"session_meta"')) return undefined;
  const match = /"cwd"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(head);
  return match?.[1] === undefined ? undefined : (JSON.parse(match[1]) as string);
}

async function readHead(path: string, bytes: number): Promise<string | undefined> {
  let handle;
  try {
    // Non-blocking, and regular files only: a FIFO named as a transcript must not hang the command.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!(await handle.stat()).isFile()) return undefined;
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
