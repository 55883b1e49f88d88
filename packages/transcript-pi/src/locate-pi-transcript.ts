import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { LocateTranscriptRequest } from '@agent-checkpoint/core';

/** Session ids are UUIDs; word characters and dashes only, so an id never names another directory. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** `$PI_CODING_AGENT_DIR`, else `<home>/.pi/agent` (pi-coding-agent 0.73.1 `getAgentDir`). */
export function piAgentDir(request: Pick<LocateTranscriptRequest, 'homeDir' | 'env'>): string {
  const env = request.env ?? process.env;
  const configured = env['PI_CODING_AGENT_DIR'];
  if (configured !== undefined && configured.trim().length > 0) return resolve(configured.replace(/^~(?=$|\/)/, request.homeDir ?? homedir()));
  return join(resolve(request.homeDir ?? homedir()), '.pi', 'agent');
}

/**
 * The session directory of a cwd: `--<cwd without its leading slash, / \ : as ->--`
 * (`getDefaultSessionDir`); `$PI_CODING_AGENT_SESSION_DIR` replaces the whole `sessions/` tree.
 */
export function piSessionDirs(request: LocateTranscriptRequest): string[] {
  const env = request.env ?? process.env;
  const root = env['PI_CODING_AGENT_SESSION_DIR']?.trim() ? resolve(env['PI_CODING_AGENT_SESSION_DIR']) : join(piAgentDir(request), 'sessions');
  if (request.cwd === undefined || request.cwd.length === 0) return [root];
  return [join(root, `--${request.cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`), root];
}

/**
 * Find `<sessions>/--<cwd>--/<time>_<sessionId>.jsonl` (the most recently written match when several
 * are there); without a cwd, every session directory is searched. Never rejects.
 */
export async function locatePiTranscript(request: LocateTranscriptRequest): Promise<string | undefined> {
  try {
    const sessionId = request.sessionId;
    if (sessionId === undefined || !SESSION_ID.test(sessionId)) return undefined;
    const suffix = `_${sessionId}.jsonl`;
    const [first, root] = piSessionDirs(request);
    const dirs = root === undefined ? subdirs(first ?? '') : [first ?? '', ...subdirs(root)];
    let best: { path: string; mtimeMs: number } | undefined;
    for (const dir of dirs) {
      for (const name of list(dir)) {
        if (!name.endsWith(suffix)) continue;
        const path = join(dir, name);
        const mtimeMs = fileMtime(path);
        if (mtimeMs !== undefined && (best === undefined || mtimeMs > best.mtimeMs)) best = { path, mtimeMs };
      }
      if (best !== undefined && dir === first && root !== undefined) return best.path;
    }
    return best?.path;
  } catch {
    return undefined;
  }
}

function subdirs(root: string): string[] {
  return list(root)
    .filter((name) => name.startsWith('--'))
    .map((name) => join(root, name));
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function fileMtime(path: string): number | undefined {
  try {
    const stats = statSync(path);
    return stats.isFile() ? stats.mtimeMs : undefined;
  } catch {
    return undefined;
  }
}
