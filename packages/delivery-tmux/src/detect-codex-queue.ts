import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, readFile, realpath, rename, stat, writeFile } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import * as z from 'zod/mini';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * How to run the installed Codex: `argv` is the command prefix (`[path]`, or `[node, codex.js]`
 * for the npm entry when only the package root is known). `path` is the file that identifies the
 * build (its mtime and size key the cache).
 */
export interface CodexCommand {
  readonly argv: readonly string[];
  readonly path: string;
  /** Where it was found: `--codex-bin`, `PATH`, or `CODEX_MANAGED_PACKAGE_ROOT`. */
  readonly source: 'option' | 'PATH' | 'CODEX_MANAGED_PACKAGE_ROOT';
}

/**
 * Which Codex to ask. The `codex` the user runs is the one on `PATH` (a wrapper there is respected,
 * which is how tests simulate a build without `codex queue`); `$CODEX_MANAGED_PACKAGE_ROOT` (set by
 * the npm launcher for its children) is the fallback. An explicit `--codex-bin` wins.
 */
export async function resolveCodexCommand(env: Env, explicit?: string): Promise<CodexCommand | undefined> {
  if (explicit !== undefined) {
    return isAbsolute(explicit) && (await isExecutable(explicit)) ? { argv: [explicit], path: explicit, source: 'option' } : undefined;
  }
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue; // a relative PATH entry would depend on the cwd (the repository)
    const candidate = join(dir, 'codex');
    if (await isExecutable(candidate)) return { argv: [candidate], path: candidate, source: 'PATH' };
  }
  const root = env['CODEX_MANAGED_PACKAGE_ROOT'];
  if (root !== undefined && isAbsolute(root)) {
    const entry = join(root, 'bin', 'codex.js');
    if (await isExecutable(entry, constants.R_OK)) return { argv: [process.execPath, entry], path: entry, source: 'CODEX_MANAGED_PACKAGE_ROOT' };
  }
  return undefined;
}

async function isExecutable(path: string, mode: number = constants.X_OK): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return false;
    await access(path, mode);
    return true;
  } catch {
    return false;
  }
}

/** Whether a Codex build has `codex queue`, and how that was decided. */
export interface QueueSupport {
  readonly supported: boolean;
  /** One line for logs and `doctor`. */
  readonly detail: string;
  /** True when the answer came from the cache. */
  readonly cached: boolean;
}

const CacheSchema = z.object({
  version: z.literal(1),
  path: z.string(),
  mtimeMs: z.number(),
  size: z.number(),
  checkedAt: z.number(),
  supported: z.boolean(),
  detail: z.string(),
});

/** A cached answer is reused for a day at most, and only for the same file, mtime and size. */
export const QUEUE_SUPPORT_CACHE_TTL_MS = 24 * 60 * 60 * 1000;

/** `<stateDir>/cache/codex-queue-support.json`. */
export function queueSupportCachePath(stateDir: string): string {
  return join(stateDir, 'cache', 'codex-queue-support.json');
}

/**
 * Does this Codex have `codex queue`? Asks `codex queue --help` (time-limited): supported when it
 * exits 0 and prints the subcommand's usage with `--thread` and `--message` (Codex 0.169 prints the
 * top-level help, also with exit 0, for an unknown subcommand, so the exit status alone says
 * nothing). The answer is cached in the state directory per binary path + mtime + size for
 * {@link QUEUE_SUPPORT_CACHE_TTL_MS}; an upgrade changes the mtime and is probed again.
 */
export async function detectQueueSupport(
  codex: CodexCommand,
  options: { readonly stateDir?: string; readonly env: Env; readonly timeoutMs?: number; readonly now?: number },
): Promise<QueueSupport> {
  const now = options.now ?? Date.now();
  let real: string;
  let info: { mtimeMs: number; size: number };
  try {
    real = await realpath(codex.path);
    info = await stat(real);
  } catch (error) {
    return { supported: false, detail: `${codex.path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`, cached: false };
  }
  const cacheFile = options.stateDir !== undefined ? queueSupportCachePath(options.stateDir) : undefined;
  if (cacheFile !== undefined) {
    const cached = await readCache(cacheFile);
    if (cached && cached.path === real && cached.mtimeMs === info.mtimeMs && cached.size === info.size && now - cached.checkedAt < QUEUE_SUPPORT_CACHE_TTL_MS && cached.checkedAt <= now) {
      return { supported: cached.supported, detail: cached.detail, cached: true };
    }
  }
  const probed = await probeQueueHelp(codex, options.env, options.timeoutMs ?? 5000);
  if (cacheFile !== undefined && probed.definite) {
    await writeCache(cacheFile, { version: 1, path: real, mtimeMs: info.mtimeMs, size: info.size, checkedAt: now, supported: probed.supported, detail: probed.detail });
  }
  return { supported: probed.supported, detail: probed.detail, cached: false };
}

/** Run `codex queue --help`. `definite` is false for a timeout or a spawn error (not cached). */
export function probeQueueHelp(codex: CodexCommand, env: Env, timeoutMs: number): Promise<{ supported: boolean; detail: string; definite: boolean }> {
  const [file, ...prefix] = codex.argv;
  return new Promise((resolve) => {
    execFile(
      file as string,
      [...prefix, 'queue', '--help'],
      { env: { ...env }, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024, windowsHide: true },
      (error, stdout) => {
        const text = String(stdout);
        if (error && (error as { killed?: boolean }).killed) {
          resolve({ supported: false, detail: `\`codex queue --help\` timed out after ${timeoutMs} ms`, definite: false });
          return;
        }
        if (error && typeof (error as { code?: unknown }).code === 'string') {
          resolve({ supported: false, detail: `cannot run ${codex.path}: ${(error as NodeJS.ErrnoException).code}`, definite: false });
          return;
        }
        const status = error ? Number((error as { code?: unknown }).code) : 0;
        if (status !== 0) {
          resolve({ supported: false, detail: `\`codex queue --help\` exited ${status}: this Codex has no \`codex queue\``, definite: true });
          return;
        }
        const usage = /Usage:\s+\S*codex\S*\s+queue\b/.test(text) && text.includes('--thread') && text.includes('--message');
        resolve(
          usage
            ? { supported: true, detail: `\`codex queue\` is available (${codex.path})`, definite: true }
            : { supported: false, detail: '`codex queue --help` did not print the queue usage: this Codex has no `codex queue`', definite: true },
        );
      },
    );
  });
}

async function readCache(file: string): Promise<z.infer<typeof CacheSchema> | undefined> {
  try {
    const info = await stat(file);
    if (!info.isFile() || info.size > 4096) return undefined;
    const parsed = CacheSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function writeCache(file: string, value: z.infer<typeof CacheSchema>): Promise<void> {
  try {
    await mkdir(join(file, '..'), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    // `wx`: never through an existing file or link; the rename replaces the final name itself.
    await writeFile(temp, `${JSON.stringify(value)}\n`, { flag: 'wx', mode: 0o600 });
    await rename(temp, file);
  } catch {
    // A cache that cannot be written only costs one more probe next time.
  }
}
