import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { LocateTranscriptRequest } from '@agent-checkpoint/core';

type Env = Readonly<Record<string, string | undefined>>;

/** A session id as Qwen Code names its files (a UUID); anything else could name a path. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** Qwen Code's own directory (settings, extensions): `$QWEN_HOME` when set, else `~/.qwen`. */
export function qwenHomeDir(where: { readonly env?: Env; readonly homeDir?: string }): string {
  const explicit = where.env?.['QWEN_HOME'];
  return explicit !== undefined && explicit !== '' ? resolve(explicit) : join(where.homeDir ?? homedir(), '.qwen');
}

/** Where Qwen Code writes sessions: `$QWEN_RUNTIME_DIR` when set, else its own directory ({@link qwenHomeDir}). */
export function qwenRuntimeDir(where: { readonly env?: Env; readonly homeDir?: string }): string {
  const runtime = where.env?.['QWEN_RUNTIME_DIR'];
  return runtime !== undefined && runtime !== '' && isAbsolute(runtime) ? runtime : qwenHomeDir(where);
}

/** The project folder name Qwen Code uses for a working directory: every non-alphanumeric character as `-`. */
export function qwenProjectSlug(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

/** `<runtime dir>/projects/<cwd slug>/chats/<session id>.jsonl`, when it is a regular file. Never throws. */
export async function locateQwenTranscript(request: LocateTranscriptRequest): Promise<string | undefined> {
  const id = request.sessionId;
  if (id === undefined || !SESSION_ID.test(id) || request.cwd === undefined) return undefined;
  const path = join(qwenRuntimeDir(request), 'projects', qwenProjectSlug(request.cwd), 'chats', `${id}.jsonl`);
  try {
    return statSync(path).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}
