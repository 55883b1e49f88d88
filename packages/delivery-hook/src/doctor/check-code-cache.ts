import { existsSync, readdirSync } from 'node:fs';
import { CODE_CACHE_ENV, isTrustedCacheDir, resolveCodeCacheDir } from '../launcher/code-cache-file.ts';
import type { DoctorFinding } from '@agent-checkpoint/setup-kit';

/**
 * The launcher's code cache: where it is and whether the hook can use it. Without it every hook run
 * compiles the bundle from source (docs/troubleshooting.md, "Timeouts").
 */
export function checkCodeCache(env: Readonly<Record<string, string | undefined>>): DoctorFinding {
  const dir = resolveCodeCacheDir(env);
  if (dir === undefined) {
    return env[CODE_CACHE_ENV] === undefined
      ? { id: 'code-cache', status: 'warn', title: 'code cache: no cache directory (no home directory?)', detail: 'Every hook run compiles the bundle from source.', fix: 'set AGENT_CHECKPOINT_CACHE_DIR to an absolute, writable directory' }
      : { id: 'code-cache', status: 'info', title: `code cache: off (${CODE_CACHE_ENV}=${env[CODE_CACHE_ENV] ?? ''})`, detail: 'Every hook run compiles the bundle from source.' };
  }
  if (!existsSync(dir)) return { id: 'code-cache', status: 'ok', title: `code cache ${dir} (created by the first hook run)` };
  if (!isTrustedCacheDir(dir)) {
    return {
      id: 'code-cache',
      status: 'warn',
      title: `code cache ${dir} is not used`,
      detail: 'It must be a directory owned by you that nobody else can write to (anyone who can write a code cache can run code in the hook); every run compiles from source.',
      fix: `chmod 700 ${dir}, or set AGENT_CHECKPOINT_CACHE_DIR`,
    };
  }
  const files = readdirSync(dir).filter((name) => name.startsWith('hook-') && name.endsWith('.v8cache'));
  return { id: 'code-cache', status: 'ok', title: `code cache ${dir}`, detail: `${files.length} cache file(s)` };
}
