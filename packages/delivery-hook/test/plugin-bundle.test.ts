import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AgentId } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { AGENT_PROFILES } from '../src/agents/profiles.ts';

/**
 * The agent plugins (Claude Code and Codex CLI plugin, Gemini CLI extension) run the hook bundle
 * committed under plugins/agent-checkpoint/dist/ — a user installs them from the repository with no
 * build step. These tests fail when that bundle is stale (its bytes differ from a fresh build of the
 * current sources: run `pnpm build:plugin` and commit the result), and when a manifest drifts: a
 * version other than this package's, a hook command that does not start the committed bundle through
 * the agent's plugin-root variable, or a user-specific path.
 */

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const pluginDir = join(repoRoot, 'plugins', 'agent-checkpoint');
const distDir = join(pluginDir, 'dist');
const version = (JSON.parse(readFileSync(join(repoRoot, 'packages', 'delivery-hook', 'package.json'), 'utf8')) as { version: string }).version;

interface BuildPluginModule {
  buildHookOutputs(): Promise<{ dir: string; files: string[] }>;
  listFiles(dir: string): string[];
  PLUGIN_HOOK_BIN: string;
}

// A runtime path (not a literal specifier): the script is plain JavaScript outside this package.
const buildScript = pathToFileURL(join(repoRoot, 'scripts', 'build-plugin.mjs')).href;
const loadBuildScript = async (): Promise<BuildPluginModule> => (await import(buildScript)) as BuildPluginModule;

const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(join(repoRoot, file), 'utf8')) as Record<string, unknown>;

/**
 * The plugin side of each agent's hooks file; what goes in it comes from the agent's profile (the
 * entries `install` registers, its handler and group shapes), so the plugins and `install` stay one
 * table. `dir` is the repository directory the plugin root stands for once installed, `bundle` the
 * bundle's directory under it. `command` starts the bundle from the plugin root without ever putting
 * that path into the shell line where the CLI pastes it unescaped (plugin-hook-paths.test.ts):
 * - Claude Code 2.1.330 leaves `${CLAUDE_PLUGIN_ROOT}` in a shell-form command for the shell to expand
 *   from the environment it sets (PowerShell: rewritten to `${env:CLAUDE_PLUGIN_ROOT}`);
 * - Codex CLI 0.169 pastes `${PLUGIN_ROOT}` into the command as text, but also sets `PLUGIN_ROOT` in
 *   the hook's environment: the shell reads it there;
 * - Gemini CLI 0.61 pastes `${extensionPath}` into every string of hooks.json and sets no variable: it
 *   goes into the handler's `env` (a value, never parsed by a shell), and node reads it there.
 * Claude Code and Codex CLI start the sh launcher (hooks/run-hook.sh, issue 24: it needs no Node and
 * starts none for the per-tool-call hooks while no configuration file can turn context checkpoints
 * on), the root expanded by the shell from the environment: `"$PLUGIN_ROOT/…"` for Codex is a plain
 * variable in sh, bash, zsh and fish (its `-lc` login shell is the user's `$SHELL`). Gemini CLI runs
 * one command with `bash -c` on POSIX and PowerShell on Windows (no per-OS field), so its command is
 * a three-line bash/PowerShell polyglot: bash runs line 1 (a command substitution holding only a
 * comment) and line 2, `exec sh "$AGENT_CHECKPOINT_EXTENSION_PATH/plugins/agent-checkpoint/hooks/run-hook.sh"`;
 * PowerShell reads `` `# `` as a literal `#`, skips from `<#` to `#>` as a block comment, and runs
 * `node -e "require(process.env.…)"`. That node form holds no `$`, quote or path for PowerShell or
 * cmd to read; `agent-checkpoint-hook` fills `argv[1]` (`-e` leaves it out), so the bundle finds its
 * mode in `argv[2]` as always. Codex hooks carry it too, as `commandWindows` (what Codex 0.169 runs
 * on Windows, through cmd.exe), with `PLUGIN_ROOT`.
 */
const HOOK_FILES = [
  {
    file: 'plugins/agent-checkpoint/hooks/claude-hooks.json',
    agent: 'claude',
    dir: 'plugins/agent-checkpoint',
    bundle: 'dist',
    command: (args: string) => `sh "\${CLAUDE_PLUGIN_ROOT}/hooks/run-hook.sh" ${args}`,
  },
  {
    file: 'plugins/agent-checkpoint/hooks/codex-hooks.json',
    agent: 'codex',
    dir: 'plugins/agent-checkpoint',
    bundle: 'dist',
    command: (args: string) => `sh "$PLUGIN_ROOT/hooks/run-hook.sh" ${args}`,
    // Codex 0.169 runs `commandWindows` instead on Windows, through cmd.exe (no sh, no `$PLUGIN_ROOT`).
    windowsCommand: (args: string) => `node -e "require(process.env.PLUGIN_ROOT+'/dist/agent-checkpoint-hook.cjs')" agent-checkpoint-hook ${args}`,
  },
  // Gemini CLI reads an extension's hooks only from <extension root>/hooks/hooks.json: the root is the
  // repository. PreCompress only on /compress (matcher `manual`): Gemini 0.61 fires it with trigger
  // `auto` before every model request, before its own threshold check — a Node start per request.
  {
    file: 'hooks/hooks.json',
    agent: 'gemini',
    dir: '.',
    bundle: 'plugins/agent-checkpoint/dist',
    // One command for both shells Gemini runs hooks with (no per-OS field): `bash -c` reads lines 1–2
    // (the sh launcher, no Node start for a gated hook), PowerShell skips them as a block comment and
    // runs line 3's node form (docs/troubleshooting.md).
    command: (args: string) =>
      [
        'echo `# <#` >/dev/null',
        `exec sh "$AGENT_CHECKPOINT_EXTENSION_PATH/plugins/agent-checkpoint/hooks/run-hook.sh" ${args}`,
        `#> > $null; node -e "require(process.env.AGENT_CHECKPOINT_EXTENSION_PATH+'/plugins/agent-checkpoint/dist/agent-checkpoint-hook.cjs')" agent-checkpoint-hook ${args}`,
      ].join('\n'),
    env: { AGENT_CHECKPOINT_EXTENSION_PATH: '${extensionPath}' },
    groupOverrides: { PreCompress: { matcher: 'manual' } },
  },
] as const satisfies readonly {
  file: string;
  agent: AgentId;
  dir: string;
  bundle: string;
  command: (args: string) => string;
  windowsCommand?: (args: string) => string;
  env?: Readonly<Record<string, string>>;
  groupOverrides?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}[];

/** The `hooks` object a plugin's hooks file must hold: every entry of the agent's profile, started as `command` says. */
function expectedHooks(spec: (typeof HOOK_FILES)[number]): Record<string, unknown[]> {
  const profile = AGENT_PROFILES[spec.agent];
  const overrides: Readonly<Record<string, Readonly<Record<string, unknown>>>> = 'groupOverrides' in spec ? spec.groupOverrides : {};
  const env = 'env' in spec ? { env: spec.env } : {};
  const hooks: Record<string, unknown[]> = {};
  for (const entry of profile.hookEntries) {
    const args = entry.args.join(' ');
    const windows = 'windowsCommand' in spec ? { commandWindows: spec.windowsCommand(args) } : {};
    const handler = { ...profile.hookHandler(entry, spec.command(args)), ...windows, ...env };
    (hooks[entry.event] ??= []).push({ ...profile.hookGroup(handler), ...overrides[entry.event] });
  }
  return hooks;
}

describe('the hook bundle the plugins run (plugins/agent-checkpoint/dist)', () => {
  it('is byte-identical to a fresh build of the current sources (else: `pnpm build:plugin` and commit)', async () => {
    const { buildHookOutputs, listFiles, PLUGIN_HOOK_BIN } = await loadBuildScript();
    const fresh = await buildHookOutputs();
    try {
      expect(fresh.files).toContain(PLUGIN_HOOK_BIN);
      expect(existsSync(distDir), `${distDir} is missing: run \`pnpm build:plugin\``).toBe(true);
      expect(listFiles(distDir), 'the committed files are the files a build writes (run `pnpm build:plugin`)').toEqual(fresh.files);
      for (const name of fresh.files) {
        const same = readFileSync(join(distDir, name)).equals(readFileSync(join(fresh.dir, name)));
        expect(same, `plugins/agent-checkpoint/dist/${name} is stale: run \`pnpm build:plugin\` and commit it`).toBe(true);
      }
    } finally {
      rmSync(fresh.dir, { recursive: true, force: true });
    }
  });

  it('builds deterministically: two builds write the same bytes', async () => {
    const { buildHookOutputs } = await loadBuildScript();
    const [a, b] = [await buildHookOutputs(), await buildHookOutputs()];
    try {
      expect(a.files).toEqual(b.files);
      for (const name of a.files) expect(readFileSync(join(a.dir, name)).equals(readFileSync(join(b.dir, name))), name).toBe(true);
      // Nothing of the machine that built it: no absolute path of the checkout or the scratch dir.
      for (const name of a.files) {
        const text = readFileSync(join(a.dir, name), 'utf8');
        expect(text.includes(repoRoot), `${name} contains the checkout path`).toBe(false);
        expect(text.includes(a.dir), `${name} contains the build dir`).toBe(false);
      }
    } finally {
      for (const { dir } of [a, b]) rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('plugin and extension manifests', () => {
  it('name the plugin agent-checkpoint at the hook package version everywhere', () => {
    const claudeMarket = readJson('.claude-plugin/marketplace.json') as { name: string; plugins: { name: string; source: string; version: string }[] };
    expect(claudeMarket.name).toBe('agent-checkpoint');
    expect(claudeMarket.plugins).toEqual([expect.objectContaining({ name: 'agent-checkpoint', source: './plugins/agent-checkpoint', version })]);
    const codexMarket = readJson('.agents/plugins/marketplace.json') as { name: string; plugins: { name: string; source: unknown }[] };
    expect(codexMarket.name).toBe('agent-checkpoint');
    expect(codexMarket.plugins).toEqual([expect.objectContaining({ name: 'agent-checkpoint', source: { source: 'local', path: './plugins/agent-checkpoint' } })]);
    for (const manifest of ['plugins/agent-checkpoint/.claude-plugin/plugin.json', 'plugins/agent-checkpoint/.codex-plugin/plugin.json', 'gemini-extension.json']) {
      expect(readJson(manifest), manifest).toMatchObject({ name: 'agent-checkpoint', version });
    }
    // Each agent reads its own hooks file: Claude Code and Codex CLI would both load a default
    // hooks/hooks.json in the plugin directory, with the other agent's argument.
    expect(readJson('plugins/agent-checkpoint/.claude-plugin/plugin.json')['hooks']).toBe('./hooks/claude-hooks.json');
    expect(readJson('plugins/agent-checkpoint/.codex-plugin/plugin.json')['hooks']).toBe('./hooks/codex-hooks.json');
    expect(existsSync(join(pluginDir, 'hooks', 'hooks.json'))).toBe(false);
  });

  it.each(HOOK_FILES)('$file: the $agent profile’s hook entries, each starting the committed bundle from the plugin root', (spec) => {
    const file = readJson(spec.file) as { hooks?: unknown };
    expect(file.hooks).toEqual(expectedHooks(spec));
    // The entries the profile marks opt-in for `install` (handoffs) are no-ops until a project turns
    // them on; the plugin registers them all, and the turn-end entry first.
    expect(Object.keys(file.hooks as object)[0]).toBe(AGENT_PROFILES[spec.agent].hookEntries[0]?.event);
    expect(existsSync(join(repoRoot, spec.dir, spec.bundle, 'agent-checkpoint-hook.cjs'))).toBe(true);
    if (spec.command('').startsWith('sh ')) expect(existsSync(join(repoRoot, spec.dir, 'hooks', 'run-hook.sh'))).toBe(true);
  });

  it('contain no user-specific or absolute path', () => {
    const files = [
      '.claude-plugin/marketplace.json',
      '.agents/plugins/marketplace.json',
      'gemini-extension.json',
      'plugins/agent-checkpoint/.claude-plugin/plugin.json',
      'plugins/agent-checkpoint/.codex-plugin/plugin.json',
      ...HOOK_FILES.map((h) => h.file),
    ];
    for (const file of files) {
      const text = readFileSync(join(repoRoot, file), 'utf8');
      expect(text, file).not.toMatch(/(?:^|["\s])(?:\/|~\/|[A-Za-z]:\\)[^"\s]*/m);
      expect(text, file).not.toMatch(/\/(?:home|Users|root|tmp|work)\//);
    }
  });
});
