import { homedir } from 'node:os';
import { join } from 'node:path';
import { readConfigBytes } from '@agent-checkpoint/core';
import { loopbackUrl } from '../tracker/tracker-settings.ts';

/** Where claude-mem's worker listens, or why it is not asked. */
export type ClaudeMemWorkerUrl = { readonly ok: true; readonly url: string } | { readonly ok: false; readonly reason: string };

/** Inputs of {@link resolveClaudeMemWorkerUrl}; all injectable for tests. */
export interface ResolveWorkerUrlOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir?: string;
  /** `process.getuid()`; undefined on Windows. */
  readonly uid?: number | undefined;
  readonly readFile?: (path: string) => string;
}

/**
 * The worker's base URL, resolved the way claude-mem resolves it (thedotmack/claude-mem at e2d1df5,
 * `src/shared/SettingsDefaultsManager.ts` and `src/shared/worker-utils.ts`): the environment variables
 * `CLAUDE_MEM_WORKER_HOST` / `CLAUDE_MEM_WORKER_PORT` win over `settings.json` in the data directory
 * (`CLAUDE_MEM_DATA_DIR`, default `~/.claude-mem`; flat keys, or the older nested `env` object), which
 * wins over the defaults: host `127.0.0.1`, port `37700 + uid % 100` (uid 77 where there is none).
 * Only a loopback host is accepted: the hook never sends a project's checkpoint text off the machine.
 */
export function resolveClaudeMemWorkerUrl(options: ResolveWorkerUrlOptions): ClaudeMemWorkerUrl {
  const { env } = options;
  const dataDir = env.CLAUDE_MEM_DATA_DIR?.replace(/^~(?=$|\/)/, options.homeDir ?? homedir()) || join(options.homeDir ?? homedir(), '.claude-mem');
  const file = readSettings(join(dataDir, 'settings.json'), options.readFile);
  const uid = 'uid' in options ? options.uid : process.getuid?.();
  const host = env.CLAUDE_MEM_WORKER_HOST || file.CLAUDE_MEM_WORKER_HOST || '127.0.0.1';
  const port = env.CLAUDE_MEM_WORKER_PORT || file.CLAUDE_MEM_WORKER_PORT || String(37700 + ((uid ?? 77) % 100));
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) return { ok: false, reason: `claude-mem worker port "${port.slice(0, 20)}" is not a port` };
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const checked = loopbackUrl(`http://${bracketed}:${port}`, 'claude-mem worker host');
  return checked.ok ? { ok: true, url: checked.url.replace(/\/$/, '') } : { ok: false, reason: checked.reason };
}

function readSettings(path: string, readFile: ((path: string) => string) | undefined): Record<string, string | undefined> {
  try {
    const parsed: unknown = JSON.parse((readFile ?? readSettingsText)(path));
    if (parsed === null || typeof parsed !== 'object') return {};
    const record = parsed as Record<string, unknown>;
    const flat = record.env !== null && typeof record.env === 'object' ? (record.env as Record<string, unknown>) : record;
    const pick = (key: string): string | undefined => (typeof flat[key] === 'string' ? (flat[key] as string) : undefined);
    return { CLAUDE_MEM_WORKER_HOST: pick('CLAUDE_MEM_WORKER_HOST'), CLAUDE_MEM_WORKER_PORT: pick('CLAUDE_MEM_WORKER_PORT') };
  } catch {
    return {};
  }
}

/** The configuration loader's read (a link is followed, as for any dotfile; a FIFO or device is refused). */
function readSettingsText(path: string): string {
  const read = readConfigBytes(path);
  if (read.kind !== 'read') throw new Error(read.kind === 'missing' ? 'missing' : read.problem);
  return read.bytes.toString('utf8');
}
