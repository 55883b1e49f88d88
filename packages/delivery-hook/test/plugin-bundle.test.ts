import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

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

interface HookHandler {
  readonly type: string;
  readonly command: string;
  readonly timeout: number;
  readonly name?: string;
}
type HooksFile = { readonly description?: string; readonly hooks: Record<string, readonly { readonly matcher?: string; readonly hooks: readonly HookHandler[] }[]> };

/**
 * Every hook file of the plugins: its agent, the variable its commands start from, the directory
 * (repository-relative) that variable stands for once installed, the bundle's directory under it,
 * and the events with the arguments before the agent name.
 */
const HOOK_FILES = [
  {
    file: 'plugins/agent-checkpoint/hooks/claude-hooks.json',
    agent: 'claude',
    root: '${CLAUDE_PLUGIN_ROOT}',
    dir: 'plugins/agent-checkpoint',
    bundle: 'dist',
    events: { Stop: { args: [] }, SessionStart: { args: ['session-start'] }, PreCompact: { args: ['pre-compact'] } },
  },
  {
    file: 'plugins/agent-checkpoint/hooks/codex-hooks.json',
    agent: 'codex',
    root: '${PLUGIN_ROOT}',
    dir: 'plugins/agent-checkpoint',
    bundle: 'dist',
    events: { Stop: { args: [] }, SessionStart: { args: ['session-start'] }, PreCompact: { args: ['pre-compact'] } },
  },
  // Gemini CLI reads an extension's hooks only from <extension root>/hooks/hooks.json: the root is the
  // repository. PreCompress only on /compress (matcher `manual`): Gemini 0.61 fires it with trigger
  // `auto` before every model request, before its own threshold check — a Node start per request.
  {
    file: 'hooks/hooks.json',
    agent: 'gemini',
    root: '${extensionPath}',
    dir: '.',
    bundle: 'plugins/agent-checkpoint/dist',
    events: { AfterAgent: { args: [], matcher: '*' }, SessionStart: { args: ['session-start'], matcher: '*' }, PreCompress: { args: ['pre-compact'], matcher: 'manual' } },
  },
] as const;

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

  it.each(HOOK_FILES)('$file: every hook starts the committed bundle through $root, with the $agent arguments', (spec) => {
    const hooks = readJson(spec.file) as unknown as HooksFile;
    expect(Object.keys(hooks.hooks).sort()).toEqual(Object.keys(spec.events).sort());
    for (const [event, expected] of Object.entries(spec.events) as [string, { args: readonly string[]; matcher?: string }][]) {
      const groups = hooks.hooks[event] ?? [];
      expect(groups, event).toHaveLength(1);
      expect(groups[0]?.matcher, `${event} matcher`).toBe(expected.matcher);
      const handlers = groups[0]?.hooks ?? [];
      expect(handlers, event).toHaveLength(1);
      const handler = handlers[0]!;
      expect(handler.type).toBe('command');
      expect(handler.command).toBe(`node "${spec.root}/${spec.bundle}/agent-checkpoint-hook.cjs" ${[...expected.args, spec.agent].join(' ')}`);
      // The agent's own unit: Gemini counts milliseconds and needs a name per hook.
      if (spec.agent === 'gemini') expect(handler).toMatchObject({ name: expect.stringMatching(/^agent-checkpoint/) as unknown, timeout: 30_000 });
      else expect(handler.timeout).toBe(30);
    }
    expect(existsSync(join(repoRoot, spec.dir, spec.bundle, 'agent-checkpoint-hook.cjs'))).toBe(true);
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
