import { mkdtemp, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gitWriteProfile, readUserGitSettings, receivePackOption, type GitWriteProfile } from '@agent-checkpoint/core';
import type { DirectGitHook } from '../config/context-config.ts';
import { gitStep, type GitContext } from './git-step.ts';

/** The write profiles of one direct checkpoint; `close` removes the private hooks directory. */
export interface DirectGitProfile {
  /** For the commit and push. */
  readonly profile: GitWriteProfile;
  /** The `--receive-pack` option of a push to `remote` (its push URL decides whether receive-pack runs on this machine). */
  receivePack(remote: string, pushUrl: string | undefined): string;
  close(): Promise<void>;
}

/**
 * Open core's write profile for a direct checkpoint in the repository `ctx.cwd` (a read context).
 *
 * Hooks: none, unless the user's trusted configuration names them (`directExecution.gitHooks`, a
 * privileged key): then a private directory (`mkdtemp`, 0700) holds a link to each named hook of the
 * repository's hooks directory (`git rev-parse --git-path hooks`) and becomes `core.hooksPath`, so a
 * hook the user did not name (post-commit, reference-transaction…) finds nothing to run.
 */
export async function openDirectGitProfile(ctx: GitContext, hooks: readonly DirectGitHook[]): Promise<DirectGitProfile | { readonly error: string }> {
  const user = await readUserGitSettings({
    cwd: ctx.cwd,
    timeoutMs: ctx.timeoutMs,
    ...(ctx.env !== undefined ? { env: ctx.env } : {}),
    ...(ctx.gitBinary !== undefined ? { gitBinary: ctx.gitBinary } : {}),
    ...(ctx.signal !== undefined ? { signal: ctx.signal } : {}),
  });
  if ('error' in user) return { error: `cannot read the user's git settings: ${user.error}` };
  let hooksDir: string | undefined;
  if (hooks.length > 0) {
    const made = await namedHooksDir(ctx, hooks);
    if ('error' in made) return made;
    hooksDir = made.dir;
  }
  return {
    profile: gitWriteProfile({ user, env: ctx.env ?? process.env, ...(hooksDir !== undefined ? { hooksDir } : {}) }),
    receivePack: (remote, pushUrl) => receivePackOption(user, remote, pushUrl),
    close: async () => {
      if (hooksDir !== undefined) await rm(hooksDir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}

async function namedHooksDir(ctx: GitContext, hooks: readonly DirectGitHook[]): Promise<{ readonly dir: string } | { readonly error: string }> {
  const { profile: _write, ...read } = ctx;
  const where = await gitStep(['rev-parse', '--git-path', 'hooks'], read);
  if (!where.ok) return { error: `git rev-parse --git-path hooks failed: ${where.message}` };
  const source = resolve(ctx.cwd, where.stdout.replace(/\n$/, ''));
  const dir = await mkdtemp(join(tmpdir(), 'agent-checkpoint-hooks-'));
  try {
    for (const name of hooks) {
      const hook = join(source, name);
      if (await stat(hook).then((s) => s.isFile(), () => false)) await symlink(hook, join(dir, name));
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    return { error: `cannot prepare the hooks directory: ${error instanceof Error ? error.message : String(error)}` };
  }
  return { dir };
}
