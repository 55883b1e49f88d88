/**
 * What the repository's own git configuration may and may not make our git processes do.
 *
 * The hook runs git as the user, outside the agent's sandbox, in a repository whose `.git/config`,
 * `.git/info/attributes` and `.gitattributes` the agent could have written during the turn. Git runs
 * programs named there; these settings keep it from doing so in our calls (see docs/reliability.md,
 * "The repository's git configuration").
 */

/**
 * How far a git call may go.
 * - `read`: our own read-only calls (status, log, rev-parse, config). Nothing the repository names is
 *   run: no fsmonitor hook, no signature program, no transport (so no lazy fetch of a partial clone),
 *   and the caller neutralises filter drivers ({@link filterDriverOverrides}).
 * - a {@link GitWriteProfile} (`git-write-profile.ts`): direct execution's commit and push. No hook,
 *   signing program, SSH command, `ext::`/`fd::` transport, receive-pack, credential helper, askpass
 *   or filter driver from the repository; the user's own settings stay in force.
 */
export type GitCallProfile = 'read' | GitWriteProfile;

/**
 * A write profile for `runGit`: `-c` settings and environment, built by `gitWriteProfile`
 * (`git-write-profile.ts`). Declared here, beside the read profile, so the call profiles import nothing.
 */
export interface GitWriteProfile {
  readonly kind: 'write';
  /** `-c` settings, after the ones every call gets. Later entries win (multi-valued keys: appended). */
  readonly config: readonly (readonly [string, string])[];
  /** Variables set (a string) or removed (`undefined`) on top of the caller's environment. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** `-c` settings of every call: the fsmonitor hook (`git status`, `git commit`) never runs. */
const ALWAYS: readonly (readonly [string, string])[] = [
  // Empty disables it on every version: before 2.36 the value is a hook path (empty = none); since
  // then `git_parse_maybe_bool("")` is false. (`false` would run a program named false on old git.)
  ['core.fsmonitor', ''],
];

/** Transports a lazy fetch could use; each is denied by name, since a per-protocol `allow` in the repository's config beats the general one. */
const TRANSPORTS = ['ext', 'fd', 'file', 'ssh', 'git', 'http', 'https', 'ftp', 'ftps'] as const;

/** `-c` settings of `read` calls on top of {@link ALWAYS}. */
const READ_ONLY: readonly (readonly [string, string])[] = [
  // `git log` would run gpg.program / gpg.ssh.program to verify each signed commit.
  ['log.showSignature', 'false'],
  // A partial clone fetches missing blobs on demand (rename detection in `status`/`log`); a fetch
  // runs core.sshCommand, remote.*.uploadpack, ext:: commands or credential helpers from the
  // repository's config. Our reads never need the network.
  ['protocol.allow', 'never'],
  ...TRANSPORTS.map((name) => [`protocol.${name}.allow`, 'never'] as const),
];

/**
 * Environment variables removed from every git call. They come from the agent CLI's environment and
 * would point git at another repository, index or object store than the one containing the payload's
 * cwd, change how our pathspecs are read, or run an external program.
 * Kept on purpose: identity (GIT_AUTHOR_*, GIT_COMMITTER_*), config locations (GIT_CONFIG_GLOBAL,
 * GIT_CONFIG_SYSTEM, GIT_CONFIG_NOSYSTEM, GIT_CONFIG_PARAMETERS/COUNT: the user's own settings),
 * GIT_CEILING_DIRECTORIES, ssh/askpass/proxy settings (direct execution's push), tracing.
 */
export const SCRUBBED_GIT_ENV: readonly string[] = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_INDEX_FILE',
  'GIT_INDEX_VERSION',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_SHALLOW_FILE',
  'GIT_GRAFT_FILE',
  'GIT_REPLACE_REF_BASE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_QUARANTINE_PATH',
  'GIT_PREFIX',
  'GIT_INTERNAL_SUPER_PREFIX',
  'GIT_ATTR_SOURCE',
  // `git config` reads only this file when set (the legacy name of --file).
  'GIT_CONFIG',
  'GIT_EXTERNAL_DIFF',
  'GIT_DIFF_OPTS',
  'GIT_PAGER',
  'GIT_LITERAL_PATHSPECS',
  'GIT_GLOB_PATHSPECS',
  'GIT_NOGLOB_PATHSPECS',
  'GIT_ICASE_PATHSPECS',
  'GIT_TEST_FSMONITOR',
];

/**
 * Always set for our git calls:
 * - `GIT_OPTIONAL_LOCKS=0`: `status` must never take `index.lock` to refresh the index (it would race
 *   with the agent's own git commands, and we promise not to write to the repository);
 * - `LC_ALL=C`: stable English error messages, which the failure classifiers match;
 * - `GIT_TERMINAL_PROMPT=0`: never wait for credentials on a terminal.
 */
export const GIT_ENV_OVERRIDES: Readonly<Record<string, string>> = {
  GIT_OPTIONAL_LOCKS: '0',
  LC_ALL: 'C',
  GIT_TERMINAL_PROMPT: '0',
};

/** `read` calls only: git ≥ 2.44 never fetches missing objects (older versions ignore it; the protocol denial covers them). */
const READ_ONLY_ENV: Readonly<Record<string, string>> = { GIT_NO_LAZY_FETCH: '1' };

/**
 * The `-c` settings that neutralise filter drivers: with an empty `clean` and `process` git applies
 * no filter (convert.c `apply_filter`), and `required=false` keeps it from failing instead.
 */
export function filterDriverOverrides(names: Iterable<string>): (readonly [string, string])[] {
  const out: (readonly [string, string])[] = [];
  for (const name of names) {
    out.push([`filter.${name}.clean`, ''], [`filter.${name}.process`, ''], [`filter.${name}.required`, 'false']);
  }
  return out;
}

/** A git command line and environment with the safety settings of {@link GitCallProfile}. */
export interface GitInvocation {
  readonly args: string[];
  readonly env: Record<string, string | undefined>;
}

/**
 * Build the command line and environment of one git call.
 *
 * Settings go in as `-c key=value`, which git splits at the first `=` and passes on to its own
 * children (a submodule's `git status`) through GIT_CONFIG_PARAMETERS. A key containing `=` (a
 * filter driver named `a=b`) cannot be written that way; it goes through GIT_CONFIG_COUNT /
 * GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n (git ≥ 2.31), appended after any the user set.
 */
export function buildGitInvocation(
  args: readonly string[],
  baseEnv: Readonly<Record<string, string | undefined>>,
  profile: GitCallProfile,
  extraConfig: readonly (readonly [string, string])[] = [],
): GitInvocation {
  const env: Record<string, string | undefined> = { ...baseEnv };
  for (const name of SCRUBBED_GIT_ENV) delete env[name];
  Object.assign(env, GIT_ENV_OVERRIDES);
  if (profile === 'read') Object.assign(env, READ_ONLY_ENV);
  else {
    for (const [name, value] of Object.entries(profile.env)) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
  }

  const settings = profile === 'read' ? [...ALWAYS, ...READ_ONLY, ...extraConfig] : [...ALWAYS, ...profile.config, ...extraConfig];
  // A writing call never starts a pager (`core.pager`/`pager.<cmd>` are the repository's too).
  const prefix: string[] = profile === 'read' ? [] : ['--no-pager'];
  let count = Number.parseInt(env.GIT_CONFIG_COUNT ?? '', 10);
  if (!Number.isInteger(count) || count < 0) count = 0;
  let viaEnv = false;
  for (const [key, value] of settings) {
    if (!key.includes('=')) {
      prefix.push('-c', `${key}=${value}`);
      continue;
    }
    env[`GIT_CONFIG_KEY_${count}`] = key;
    env[`GIT_CONFIG_VALUE_${count}`] = value;
    count++;
    viaEnv = true;
  }
  if (viaEnv) env.GIT_CONFIG_COUNT = String(count);
  return { args: [...prefix, ...args], env };
}
