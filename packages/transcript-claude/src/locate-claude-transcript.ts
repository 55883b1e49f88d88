import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { LocateTranscriptRequest } from '@agent-checkpoint/core';

/**
 * Session ids are UUIDs in practice. Accept word characters and dashes only, so an id can never
 * climb out of the projects directory (`..`, `/`) nor act as a glob pattern.
 */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** Claude's project directory name: the cwd with every non-alphanumeric character turned into `-`. */
export function claudeProjectSlug(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

/** `$CLAUDE_CONFIG_DIR`, else `<home>/.claude`. */
export function claudeConfigDir(request: Pick<LocateTranscriptRequest, 'homeDir' | 'env'>): string {
  const env = request.env ?? process.env;
  const configured = env['CLAUDE_CONFIG_DIR'];
  if (configured !== undefined && configured.trim().length > 0) return resolve(configured);
  return join(resolve(request.homeDir ?? homedir()), '.claude');
}

/**
 * Find `<config dir>/projects/<slug>/<sessionId>.jsonl`. When the cwd is unknown, or its slug does
 * not match (Claude shortens very long slugs; the session may have been started from another
 * directory), search `projects/*\/<sessionId>.jsonl` and take the most recently modified match.
 * Resolves to undefined when nothing is found or the id is not a plain session id. Never rejects.
 */
export async function locateClaudeTranscript(request: LocateTranscriptRequest): Promise<string | undefined> {
  try {
    const sessionId = request.sessionId;
    if (sessionId === undefined || !SESSION_ID.test(sessionId)) return undefined;
    const projects = join(claudeConfigDir(request), 'projects');
    if (request.cwd !== undefined && request.cwd.length > 0) {
      const direct = join(projects, claudeProjectSlug(request.cwd), `${sessionId}.jsonl`);
      if (isFile(direct)) return direct;
    }
    // Loaded on first use: the fallback search is rare, and fast-glob's module set would otherwise be
    // initialised in every hook process that imports this reader.
    const { default: fg } = await import('fast-glob');
    const matches = await fg(`*/${sessionId}.jsonl`, {
      cwd: projects,
      absolute: true,
      onlyFiles: true,
      deep: 2,
      followSymbolicLinks: false,
      suppressErrors: true,
      stats: true,
    });
    let best: { path: string; mtimeMs: number } | undefined;
    for (const match of matches) {
      const mtimeMs = match.stats?.mtimeMs ?? 0;
      if (!best || mtimeMs > best.mtimeMs) best = { path: match.path, mtimeMs };
    }
    return best?.path;
  } catch {
    return undefined;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
