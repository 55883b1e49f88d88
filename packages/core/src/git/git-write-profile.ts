import { forShellArg } from '../text-safety/text-safety.ts';
import { filterDriversFromGitConfig } from './find-filter-drivers.ts';
import { filterDriverOverrides, type GitWriteProfile } from './git-safety.ts';
import { runGit } from './run-git.ts';

/**
 * The profile of every git process that writes (direct execution's WIP commit and push), beside the
 * read profile of `git-safety.ts`.
 *
 * The hook runs git as the user, outside the agent's sandbox, in a repository whose `.git/config` and
 * `.git/hooks/` the agent may have written during the turn. A writing git process would run what that
 * configuration names: hooks (`--no-verify` skips only pre-commit, commit-msg and pre-push;
 * prepare-commit-msg, post-commit, reference-transaction, post-index-change, pre-auto-gc… still run),
 * a signing program, an SSH command, an `ext::`/`fd::` transport, a repository-set receive-pack, a
 * credential helper, an askpass program, filter drivers. Here none of that comes from the repository:
 * every such setting is pinned with `-c` (command scope, which beats every config file) or the
 * environment, to the user's own value (system, global or command-scope configuration and the
 * environment the agent CLI started us with) or to git's neutral default. See docs/reliability.md,
 * "Writing git processes".
 */

/**
 * The user's own git settings that a writing git process keeps: from the system and global files
 * (and what they include) and command-scope settings of the environment (`GIT_CONFIG_PARAMETERS`,
 * `GIT_CONFIG_COUNT`), never from the repository's `.git/config` or `config.worktree`.
 */
export interface UserGitSettings {
  /** `credential.helper` and `credential.<url>.helper` entries, in git's order. */
  readonly credentialHelpers: readonly (readonly [key: string, value: string])[];
  readonly sshCommand?: string;
  readonly sshVariant?: string;
  readonly askPass?: string;
  /** `remote.<name>.receivepack` the user set (keys as git reports them; `uploadpack` runs only on fetch, which we never do). */
  readonly remotePrograms: readonly (readonly [key: string, value: string])[];
  /** Filter drivers the repository's own config defines (neutralised like the read profile does). */
  readonly repositoryFilterDrivers: readonly string[];
}

/** No user-level settings at all: git's defaults. */
export const NO_USER_GIT_SETTINGS: UserGitSettings = { credentialHelpers: [], remotePrograms: [], repositoryFilterDrivers: [] };

/** Options of {@link readUserGitSettings}. */
export interface ReadUserGitSettingsOptions {
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly gitBinary?: string;
  readonly signal?: AbortSignal;
}

/** Scopes whose settings are the user's: the repository's are `local` and `worktree`. */
const USER_SCOPES = new Set(['system', 'global', 'command']);
const USER_KEYS = /^(credential\.(.+\.)?helper|core\.sshcommand|ssh\.variant|core\.askpass|remote\..+\.receivepack|filter\..+)$/;

/**
 * Read the user's own settings a write keeps, with one read-profile `git config --show-scope` (git ≥
 * 2.26; nothing runs, includes are followed). Also lists the filter drivers the repository's config
 * defines. A failure gives `error`: the
 * caller must not write with settings it could not establish.
 */
export async function readUserGitSettings(options: ReadUserGitSettingsOptions): Promise<UserGitSettings | { readonly error: string }> {
  const result = await runGit(['config', '-z', '--show-scope', '--get-regexp', USER_KEYS.source], {
    cwd: options.cwd,
    timeoutMs: options.timeoutMs,
    maxOutputBytes: 1024 * 1024,
    ...(options.env !== undefined ? { env: options.env } : {}),
    ...(options.gitBinary !== undefined ? { gitBinary: options.gitBinary } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  });
  if (result.kind !== 'exited') return { error: `git config failed (${result.kind})` };
  // Exit 1 with no output: none of the keys is set anywhere.
  if (result.code !== 0 && !(result.code === 1 && result.stdout.length === 0)) return { error: `git config failed: exit ${result.code}: ${result.stderr.trim()}` };
  return parseScopedConfig(result.stdout.toString('utf8'));
}

/** Parse `git config -z --show-scope --get-regexp` output: `scope\0key\nvalue\0` per entry. */
export function parseScopedConfig(text: string): UserGitSettings {
  const parts = text.split('\0');
  const credentialHelpers: (readonly [string, string])[] = [];
  const remotePrograms: (readonly [string, string])[] = [];
  const filterDrivers = new Set<string>();
  let sshCommand: string | undefined;
  let sshVariant: string | undefined;
  let askPass: string | undefined;
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const scope = parts[i] as string;
    const entry = parts[i + 1] as string;
    const newline = entry.indexOf('\n');
    const key = newline < 0 ? entry : entry.slice(0, newline);
    const value = newline < 0 ? '' : entry.slice(newline + 1);
    const lower = key.toLowerCase();
    if (lower.startsWith('filter.')) {
      // The repository's own drivers are neutralised; the user's (git lfs install) stay in force.
      if (!USER_SCOPES.has(scope)) for (const name of filterDriversFromGitConfig(Buffer.from(key, 'utf8'))) filterDrivers.add(name);
      continue;
    }
    if (!USER_SCOPES.has(scope)) continue;
    if (lower.startsWith('credential.')) credentialHelpers.push([key, value]);
    else if (lower.startsWith('remote.')) remotePrograms.push([key, value]);
    else if (lower === 'core.sshcommand') sshCommand = value;
    else if (lower === 'ssh.variant') sshVariant = value;
    else if (lower === 'core.askpass') askPass = value;
  }
  return {
    credentialHelpers,
    remotePrograms,
    repositoryFilterDrivers: [...filterDrivers],
    ...(sshCommand !== undefined ? { sshCommand } : {}),
    ...(sshVariant !== undefined ? { sshVariant } : {}),
    ...(askPass !== undefined ? { askPass } : {}),
  };
}

/** Options of {@link gitWriteProfile}. */
export interface GitWriteProfileOptions {
  /** The user's settings ({@link readUserGitSettings}). */
  readonly user: UserGitSettings;
  /** The caller's environment (the user's: `GIT_SSH_COMMAND`, `GIT_ASKPASS`… are kept). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * The hooks directory: a private directory holding only the hooks the user's trusted configuration
   * names. Default: no hooks at all (a path under `/dev/null`, which no one can create).
   */
  readonly hooksDir?: string;
}

/** Where no hook can exist: hooks are looked up as `<this>/<name>`. */
const NO_HOOKS = process.platform === 'win32' ? 'NUL' : '/dev/null';

/** Settings of every writing call that do not depend on the user. */
const WRITE_ALWAYS: readonly (readonly [string, string])[] = [
  // Signing runs gpg.program / gpg.ssh.program / gpg.x509.program: WIP commits are never signed.
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['push.gpgSign', 'false'],
  ['log.showSignature', 'false'],
  ['gpg.program', 'gpg'],
  ['gpg.openpgp.program', 'gpg'],
  ['gpg.ssh.program', 'ssh-keygen'],
  ['gpg.x509.program', 'gpgsm'],
  // `ext::<command>` runs a command; `fd::` talks to inherited descriptors. A per-protocol `allow` in
  // the repository's config beats the general one, so each is denied by name.
  ['protocol.ext.allow', 'never'],
  ['protocol.fd.allow', 'never'],
  // No editor (`:` is git's "no editor"), no pager, no submodule pushes under their own config,
  // no automatic gc/maintenance (it runs the pre-auto-gc hook and takes time in the hook).
  ['core.editor', ':'],
  ['sequence.editor', ':'],
  ['core.pager', 'cat'],
  ['push.recurseSubmodules', 'no'],
  ['submodule.recurse', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
];

/**
 * Build the write profile: see the module comment. Pure: the caller supplies the user's settings
 * and the hooks directory.
 */
export function gitWriteProfile(options: GitWriteProfileOptions): GitWriteProfile {
  const { user, env } = options;
  const config: (readonly [string, string])[] = [...WRITE_ALWAYS];
  config.push(['core.hooksPath', options.hooksDir ?? NO_HOOKS]);
  // An empty helper empties git's list, so the repository's helpers (generic or per URL) are dropped;
  // the user's are then added again in their order.
  config.push(['credential.helper', ''], ...user.credentialHelpers);
  config.push(['core.askPass', user.askPass ?? '']);
  config.push(['ssh.variant', user.sshVariant ?? 'auto']);
  config.push(...filterDriverOverrides(user.repositoryFilterDrivers));

  // GIT_SSH_COMMAND beats core.sshCommand, which beats GIT_SSH: set it to the first of those the user
  // has, so the repository's core.sshCommand is never reached.
  const sshCommand = env['GIT_SSH_COMMAND'] ?? user.sshCommand ?? (env['GIT_SSH'] ? forShellArg(env['GIT_SSH']) : 'ssh');
  const outEnv: Record<string, string | undefined> = {
    GIT_SSH_COMMAND: sshCommand,
    GIT_EDITOR: ':',
    GIT_SEQUENCE_EDITOR: ':',
    // core.gitProxy (git://) is first-match-wins, so a -c cannot override the repository's; the
    // variable beats it, and an empty one means no proxy.
    GIT_PROXY_COMMAND: env['GIT_PROXY_COMMAND'] ?? '',
  };
  // A user-set allow-list replaces the config policy entirely: keep it, without ext and fd.
  const allow = env['GIT_ALLOW_PROTOCOL'];
  if (allow !== undefined) outEnv['GIT_ALLOW_PROTOCOL'] = allow.split(':').filter((p) => p !== 'ext' && p !== 'fd').join(':');
  return { kind: 'write', config, env: outEnv };
}

/**
 * The `--receive-pack=<program>` option of a push to `remote`. `remote.<name>.receivepack` is
 * first-one-wins in git (a `-c` cannot override the repository's), but the option beats it. The
 * program is the user's own `remote.<name>.receivepack`, else git's default; on a local URL (a path
 * or `file://`, after `insteadOf` rewrites) receive-pack runs here, outside the sandbox, in a
 * repository the URL chose, so it runs without that repository's hooks and fsmonitor.
 */
export function receivePackOption(user: UserGitSettings, remote: string, pushUrl: string | undefined): string {
  const own = user.remotePrograms.find(([key]) => key.toLowerCase() === `remote.${remote}.receivepack`.toLowerCase())?.[1];
  if (own !== undefined) return `--receive-pack=${own}`;
  if (pushUrl !== undefined && !isLocalUrl(pushUrl)) return '--receive-pack=git-receive-pack';
  return `--receive-pack=git -c core.hooksPath=${forShellArg(NO_HOOKS)} -c core.fsmonitor= receive-pack`;
}

/** Git's own rule (`url_is_local_not_ssh`): a `file://` URL, or no `:` before the first `/`. */
export function isLocalUrl(url: string): boolean {
  if (url.startsWith('file://')) return true;
  const colon = url.indexOf(':');
  if (colon < 0) return true;
  const slash = url.indexOf('/');
  return slash >= 0 && slash < colon;
}
