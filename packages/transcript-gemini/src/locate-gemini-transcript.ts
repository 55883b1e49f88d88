import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { LocateTranscriptRequest } from '@agent-checkpoint/core';
import { SNIFF_BYTES, sniffGeminiFile } from './sniff-gemini-file.ts';

/**
 * Session ids are UUIDs. Only letters, digits, `-` and `_` are accepted, which rules out path
 * traversal and glob metacharacters in the file-name pattern built from the id.
 */
const SESSION_ID = /^[A-Za-z0-9_-]{8,128}$/;

/**
 * Find the recording of a Gemini CLI session:
 * `<GEMINI_CLI_HOME or home>/.gemini/tmp/<project>/chats/session-<YYYY-MM-DDTHH-MM>-<first 8 chars of
 * the session id>.jsonl` (or `.json` for the older format).
 *
 * The project directory is a slug in 0.61 (the project's basename, registered in `projects.json`)
 * and a sha256 of the project root in older versions, so every project directory is searched. When
 * several files match the 8-character prefix, the ranking is: a file whose metadata line carries the
 * full session id, then a file under the session cwd's slug or hash directory, then the newest.
 * Subagent recordings (`chats/<parentId>/<id>.jsonl`) are not main sessions and are not returned.
 * Resolves to undefined when nothing is found or on any error; never rejects.
 */
export async function locateGeminiTranscript(request: LocateTranscriptRequest): Promise<string | undefined> {
  try {
    const sessionId = request.sessionId;
    if (sessionId === undefined || !SESSION_ID.test(sessionId)) return undefined;
    const env = request.env ?? process.env;
    const cliHome = env['GEMINI_CLI_HOME'];
    const base = cliHome !== undefined && cliHome.length > 0 ? cliHome : (request.homeDir ?? homedir());
    const root = join(base, '.gemini', 'tmp');
    const short = sessionId.slice(0, 8);
    // Loaded on first use: the fallback search is rare, and fast-glob's module set would otherwise be
    // initialised in every hook process that imports this reader.
    const { default: fg } = await import('fast-glob');
    const entries = await fg([`*/chats/session-*-${short}.jsonl`, `*/chats/session-*-${short}.json`], {
      cwd: root,
      absolute: true,
      onlyFiles: true,
      stats: true,
      dot: true,
      followSymbolicLinks: false,
      suppressErrors: true,
    });
    if (entries.length === 0) return undefined;

    const projectDirs = request.cwd !== undefined ? projectDirNames(request.cwd) : [];
    const ranked = entries.map((entry) => ({
      path: entry.path,
      verified: carriesSessionId(entry.path, sessionId),
      inProject: projectDirs.includes(basename(resolve(entry.path, '..', '..'))),
      mtimeMs: entry.stats?.mtimeMs ?? 0,
    }));
    ranked.sort(
      (a, b) =>
        Number(b.verified) - Number(a.verified) ||
        Number(b.inProject) - Number(a.inProject) ||
        b.mtimeMs - a.mtimeMs ||
        b.path.localeCompare(a.path),
    );
    return ranked[0]?.path;
  } catch {
    return undefined;
  }
}

/** Names the CLI gives a project's directory: its basename (0.61 slug) and the sha256 of its path. */
function projectDirNames(cwd: string): string[] {
  const root = resolve(cwd);
  return [basename(root), createHash('sha256').update(root).digest('hex')];
}

function carriesSessionId(path: string, sessionId: string): boolean {
  try {
    const format = sniffGeminiFile(path, SNIFF_BYTES, false);
    return format.format === 'jsonl' && format.sessionId === sessionId;
  } catch {
    return false;
  }
}
