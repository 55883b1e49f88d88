import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_IDS } from '@agent-checkpoint/core';
import type { DoctorReport } from '@agent-checkpoint/setup-kit';
import { profileOf } from '../agents/profiles.ts';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { HOOK_BUNDLE, runHookBundle } from '../test-support/run-hook-bundle.ts';
import { findPluginInstalls } from './plugin-installs.ts';

// The agents' own installs of ours (Claude Code plugin, Gemini CLI extension, Codex plugin), on temp
// HOMEs laid out byte for byte as the pinned CLIs lay them out: the registry files below are what
// `claude plugin marketplace add <dir>` + `claude plugin install` (2.1.330), `gemini extensions
// link|install` (0.61) and `codex plugin marketplace add` + `codex plugin add` (0.169) wrote in a
// temp HOME (e2e/src/plugin-installs.test.ts produces the same with the real CLIs). doctor, status,
// install and uninstall --purge run through the built bin.

let sandbox: HookSandbox;
let clone: string;
beforeEach(() => {
  sandbox = createHookSandbox('ac-plugin-');
  // The marketplace: a clone holding the plugin with its built bin.
  clone = join(sandbox.root, 'agent-checkpoint');
  mkdirSync(join(clone, 'plugins', 'agent-checkpoint', 'dist'), { recursive: true });
  cpSync(HOOK_BUNDLE, join(clone, 'plugins', 'agent-checkpoint', 'dist', 'agent-checkpoint-hook.cjs'));
});
afterEach(() => sandbox.remove());

const run = (args: string[]) => runHookBundle({ args, env: { ...sandbox.env, PATH: '/usr/bin:/bin', NO_COLOR: '1', AGENT_CHECKPOINT_DOCTOR_TIMEOUT_MS: '1500' }, cwd: sandbox.home });
const doctor = async () => {
  const result = await run(['doctor', '--cwd', sandbox.home, '--json']);
  return JSON.parse(result.stdout) as DoctorReport;
};
const finding = (report: DoctorReport, id: string) => report.findings.find((f) => f.id === id);

function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** What `claude plugin marketplace add <clone>` + `claude plugin install agent-checkpoint@agent-checkpoint` write. */
function claudePluginFromFolder(): string {
  const claude = join(sandbox.home, '.claude');
  writeJson(join(claude, 'settings.json'), {
    extraKnownMarketplaces: { 'agent-checkpoint': { source: { source: 'directory', path: clone } } },
    enabledPlugins: { 'agent-checkpoint@agent-checkpoint': true },
  });
  const installPath = join(claude, 'plugins', 'cache', 'agent-checkpoint', 'agent-checkpoint', '0.1.0');
  cpSync(join(clone, 'plugins', 'agent-checkpoint'), installPath, { recursive: true });
  writeJson(join(claude, 'plugins', 'installed_plugins.json'), {
    version: 2,
    plugins: {
      'agent-checkpoint@agent-checkpoint': [
        { scope: 'user', installPath, version: '0.1.0', installedAt: '2026-11-28T05:42:58.660Z', lastUpdated: '2026-11-28T05:42:58.660Z', gitCommitSha: '4185d8ae1e66213c6cda3fd29845cd14145fccca' },
      ],
    },
  });
  writeJson(join(claude, 'plugins', 'known_marketplaces.json'), {
    'agent-checkpoint': { source: { source: 'directory', path: clone }, installLocation: clone, lastUpdated: '2026-11-28T05:42:57.829Z' },
  });
  return join(clone, 'plugins', 'agent-checkpoint', 'dist', 'agent-checkpoint-hook.cjs');
}

/** What `gemini extensions link <clone>` writes. */
function geminiLinkedExtension(): void {
  const extensions = join(sandbox.home, '.gemini', 'extensions');
  writeJson(join(extensions, 'agent-checkpoint', '.gemini-extension-install.json'), { source: clone, type: 'link' });
  writeJson(join(extensions, 'extension-enablement.json'), { 'agent-checkpoint': { overrides: [`${sandbox.home}/*`] } });
}

/** What `codex plugin marketplace add <clone>` + `codex plugin add agent-checkpoint@agent-checkpoint` write, then trusting all hooks in the TUI. */
function codexPlugin(extraConfig = ''): string {
  const codex = join(sandbox.home, '.codex');
  const root = join(codex, 'plugins', 'cache', 'agent-checkpoint', 'agent-checkpoint', '0.1.0');
  cpSync(join(clone, 'plugins', 'agent-checkpoint'), root, { recursive: true });
  mkdirSync(codex, { recursive: true });
  const trust = ['stop', 'post_tool_use', 'pre_compact', 'session_start', 'user_prompt_submit']
    .map((event, i) => `[hooks.state."agent-checkpoint@agent-checkpoint:hooks/codex-hooks.json:${event}:0:0"]\ntrusted_hash = "sha256:${String(i).repeat(64)}/sha256:65f120b99dcccc370f854059f02acab1a35d5df39dd4c7de4d48c0ef1def985d"\n`)
    .join('\n');
  writeFileSync(
    join(codex, 'config.toml'),
    `${extraConfig}[marketplaces.agent-checkpoint]\nsource_type = "local"\nsource = "${clone}"\n\n[plugins."agent-checkpoint@agent-checkpoint"]\nenabled = true\n\n${trust}`,
  );
  return join(root, 'dist', 'agent-checkpoint-hook.cjs');
}

describe('plugin and extension installs', () => {
  it('are read from the files each agent writes, with the bin each runs', () => {
    const claudeBin = claudePluginFromFolder();
    geminiLinkedExtension();
    const codexBin = codexPlugin();
    const location = { env: { HOME: sandbox.home }, cwd: sandbox.home };
    expect(findPluginInstalls('claude', location)).toMatchObject([{ id: 'agent-checkpoint@agent-checkpoint', enabled: true, bin: claudeBin, binPresent: true, source: { kind: 'local-path', path: clone, present: true } }]);
    expect(findPluginInstalls('gemini', location)).toMatchObject([{ id: 'agent-checkpoint', enabled: true, bin: claudeBin, source: { kind: 'local-path', path: clone } }]);
    expect(findPluginInstalls('codex', location)).toMatchObject([{ id: 'agent-checkpoint@agent-checkpoint', enabled: true, bin: codexBin, binPresent: true }]);
    // Disabled for this directory in Gemini's enablement file.
    writeJson(join(sandbox.home, '.gemini', 'extensions', 'extension-enablement.json'), { 'agent-checkpoint': { overrides: [`${sandbox.home}/*`, `!${sandbox.home}/*`] } });
    expect(findPluginInstalls('gemini', location)[0]?.enabled).toBe(false);
  });

  it('a Claude Code plugin installed with --scope project or local is active in that project only', () => {
    claudePluginFromFolder();
    const project = join(sandbox.root, 'project');
    const installed = join(sandbox.home, '.claude', 'plugins', 'installed_plugins.json');
    const registry = JSON.parse(readFileSync(installed, 'utf8')) as { plugins: Record<string, Array<Record<string, unknown>>> };
    const [entry] = registry.plugins['agent-checkpoint@agent-checkpoint']!;
    // As `claude plugin install --scope project` then `--scope local` in `project` write them (2.1.330).
    registry.plugins['agent-checkpoint@agent-checkpoint'] = [
      { ...entry, scope: 'project', projectPath: project },
      { ...entry, scope: 'local', projectPath: project },
    ];
    writeJson(installed, registry);
    writeJson(join(sandbox.home, '.claude', 'settings.json'), { extraKnownMarketplaces: { 'agent-checkpoint': { source: { source: 'directory', path: clone } } } });
    writeJson(join(project, '.claude', 'settings.json'), { enabledPlugins: { 'agent-checkpoint@agent-checkpoint': true } });
    writeJson(join(project, '.claude', 'settings.local.json'), { enabledPlugins: { 'agent-checkpoint@agent-checkpoint': true } });
    const inProject = findPluginInstalls('claude', { env: { HOME: sandbox.home }, cwd: join(project, 'src') });
    expect(inProject.map((p) => [p.enabled, p.removeCommand])).toEqual([
      [true, `cd '${project}' && claude plugin uninstall agent-checkpoint@agent-checkpoint --scope project`],
      [true, `cd '${project}' && claude plugin uninstall agent-checkpoint@agent-checkpoint --scope local`],
    ]);
    expect(findPluginInstalls('claude', { env: { HOME: sandbox.home }, cwd: sandbox.home }).map((p) => p.enabled)).toEqual([false, false]);
  });

  it('doctor reports each as a working install with its bin, not "no hook registered"', async () => {
    const claudeBin = claudePluginFromFolder();
    geminiLinkedExtension();
    const codexBin = codexPlugin();
    const report = await doctor();
    expect(finding(report, 'claude.plugin.agent-checkpoint@agent-checkpoint')).toMatchObject({ status: 'ok', title: `Claude Code: plugin agent-checkpoint@agent-checkpoint (enabled): runs ${claudeBin}` });
    expect(finding(report, 'gemini.plugin.agent-checkpoint')).toMatchObject({ status: 'ok', title: expect.stringContaining(`runs ${claudeBin}`) });
    expect(finding(report, 'codex.plugin.agent-checkpoint@agent-checkpoint')).toMatchObject({ status: 'ok', title: expect.stringContaining(`runs ${codexBin}`) });
    expect(finding(report, 'codex.trust.agent-checkpoint@agent-checkpoint')?.status).toBe('ok');
    // Every agent with a plugin route has one installed here (Copilot CLI, Qwen Code and Pi have none:
    // their settings entry or extension is the only route).
    const withPlugin = AGENT_IDS.filter((agent) => profileOf(agent).pluginRoute !== undefined);
    expect(withPlugin).toEqual(['claude', 'gemini', 'codex']);
    for (const agent of withPlugin) expect(finding(report, `${agent}.hook`)).toBeUndefined();
    expect(report.findings.filter((f) => f.id.endsWith('.install.twice'))).toEqual([]);
  });

  it('install refuses a second copy beside an active plugin unless --force; doctor reports the pair with the command that removes one', async () => {
    claudePluginFromFolder();
    const settings = join(sandbox.home, '.claude', 'settings.json');
    const before = readFileSync(settings, 'utf8');
    const refused = await run(['install', '--agent', 'claude']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not installing: the plugin agent-checkpoint@agent-checkpoint is installed and enabled');
    expect(refused.stderr).toContain('claude plugin uninstall agent-checkpoint@agent-checkpoint');
    expect(readFileSync(settings, 'utf8')).toBe(before);

    expect((await run(['install', '--agent', 'claude', '--force'])).code).toBe(0);
    const twice = finding(await doctor(), 'claude.install.twice');
    expect(twice).toMatchObject({ status: 'fail', fix: expect.stringContaining('agent-checkpoint-hook uninstall --agent claude') });
    expect(twice?.fix).toContain('claude plugin uninstall agent-checkpoint@agent-checkpoint');
    // The command it names removes the settings copy; the plugin stays the one install.
    const removed = await run(['uninstall', '--agent', 'claude']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('remove it with: claude plugin uninstall agent-checkpoint@agent-checkpoint');
    expect(readFileSync(settings, 'utf8')).toBe(before);
    expect(finding(await doctor(), 'claude.install.twice')).toBeUndefined();
  });

  it('status lists every install with the bin it runs, and two active ones as a problem', async () => {
    const claudeBin = claudePluginFromFolder();
    geminiLinkedExtension();
    const codexBin = codexPlugin();
    expect((await run(['install', '--agent', 'gemini', '--force'])).code).toBe(0);
    const status = await run(['status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`Claude Code: plugin agent-checkpoint@agent-checkpoint (enabled) → runs ${claudeBin}`);
    expect(status.stdout).toContain(`Gemini CLI: extension agent-checkpoint (enabled) → runs ${claudeBin}`);
    expect(status.stdout).toContain(`Gemini CLI: settings (user) ${join(sandbox.home, '.gemini', 'settings.json')} → runs `);
    expect(status.stdout).toContain('Gemini CLI: two active installs, every hook runs twice');
    expect(status.stdout).not.toContain('Claude Code: two active installs');
    expect(status.stdout).toContain(`Codex CLI: plugin agent-checkpoint@agent-checkpoint (enabled) → runs ${codexBin}`);
    const json = JSON.parse((await run(['status', '--json'])).stdout) as { installs: Array<{ agent: string; form: string }> };
    expect(json.installs.map((i) => `${i.agent} ${i.form}`)).toEqual(['claude claude-plugin', 'gemini settings', 'gemini gemini-extension', 'codex codex-plugin']);
  });

  it('status and doctor from a terminal name each plugin\'s command-line tool by its exact path, or say it is on the PATH', async () => {
    // The clone's plugin with its tool (bin/), as the repository ships it.
    mkdirSync(join(clone, 'plugins', 'agent-checkpoint', 'bin'));
    cpSync(join(import.meta.dirname, '..', '..', '..', '..', 'plugins', 'agent-checkpoint', 'bin', 'agent-checkpoint-hook'), join(clone, 'plugins', 'agent-checkpoint', 'bin', 'agent-checkpoint-hook'));
    claudePluginFromFolder();
    const codexBin = codexPlugin();
    const claudeTool = join(clone, 'plugins', 'agent-checkpoint', 'bin', 'agent-checkpoint-hook');
    const codexTool = join(dirname(dirname(codexBin)), 'bin', 'agent-checkpoint-hook');
    const status = (await run(['status'])).stdout;
    expect(status).toContain(`Claude Code: plugin agent-checkpoint@agent-checkpoint (enabled) → runs ${join(clone, 'plugins', 'agent-checkpoint', 'dist', 'agent-checkpoint-hook.cjs')}\n    its command-line tool: ${claudeTool}\n`);
    expect(status).toContain(`Codex CLI: plugin agent-checkpoint@agent-checkpoint (enabled) → runs ${codexBin}\n    its command-line tool: ${codexTool}\n`);
    expect(finding(await doctor(), 'tool')).toMatchObject({ status: 'info', title: `command-line tool: ${claudeTool}, ${codexTool}` });

    // A link on the PATH to one of them (the user's choice): that one is found by its name.
    const onPath = join(sandbox.root, 'on-path');
    mkdirSync(onPath);
    symlinkSync(claudeTool, join(onPath, 'agent-checkpoint-hook'));
    const linked = await runHookBundle({ args: ['status'], env: { ...sandbox.env, PATH: `${onPath}:/usr/bin:/bin`, NO_COLOR: '1' }, cwd: sandbox.home });
    expect(linked.stdout).toContain(`runs ${join(clone, 'plugins', 'agent-checkpoint', 'dist', 'agent-checkpoint-hook.cjs')}\n    its command-line tool: agent-checkpoint-hook (on the PATH)\n`);
    expect(linked.stdout).toContain(`its command-line tool: ${codexTool}\n`);

    // The plugin's own bin/ on the PATH is what Claude Code gives its Bash tool, not a terminal: the
    // model runs `status` there for a person, who needs the path.
    const inBashTool = await runHookBundle({ args: ['status'], env: { ...sandbox.env, PATH: `${dirname(claudeTool)}:/usr/bin:/bin`, NO_COLOR: '1' }, cwd: sandbox.home });
    expect(inBashTool.stdout).toContain(`its command-line tool: ${claudeTool}\n`);
  });

  it('a moved local-path marketplace is reported with its path and the command that re-adds it from a git URL', async () => {
    claudePluginFromFolder();
    geminiLinkedExtension();
    renameSync(clone, `${clone}-moved`);
    const report = await doctor();
    expect(finding(report, 'claude.plugin.agent-checkpoint@agent-checkpoint')).toMatchObject({
      status: 'fail',
      title: `Claude Code: plugin agent-checkpoint@agent-checkpoint: its local marketplace ${clone} is gone (moved or deleted)`,
      fix: expect.stringContaining('claude plugin marketplace add <git-url>'),
    });
    expect(finding(report, 'gemini.plugin.agent-checkpoint')).toMatchObject({ status: 'fail', fix: expect.stringContaining('gemini extensions install <git-url>') });
  });

  it('uninstall --purge is refused while a plugin is installed, then removes the state and exactly our Codex trust entries', async () => {
    const userToml = '# my settings\nmodel = "gpt-5.5"\n\n[hooks.state."/elsewhere/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:abc"\n\n';
    codexPlugin(userToml);
    const config = join(sandbox.home, '.codex', 'config.toml');
    expect((await run(['off', '--all'])).code).toBe(0);
    const refused = await run(['uninstall', '--agent', 'all', '--purge']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('codex plugin remove agent-checkpoint@agent-checkpoint');
    expect(existsSync(sandbox.stateDir)).toBe(true);

    // What `codex plugin remove` leaves: the plugin table and cache go, the marketplace and trust tables stay.
    const text = readFileSync(config, 'utf8').replace('[plugins."agent-checkpoint@agent-checkpoint"]\nenabled = true\n\n', '');
    writeFileSync(config, text);
    const purged = await run(['uninstall', '--agent', 'all', '--purge']);
    expect(purged).toMatchObject({ code: 0, stderr: '' });
    expect(purged.stdout).toContain('[hooks.state."agent-checkpoint@agent-checkpoint:hooks/codex-hooks.json:stop:0:0"]');
    expect(existsSync(sandbox.stateDir)).toBe(false);
    expect(readFileSync(config, 'utf8')).toBe(`${userToml}[marketplaces.agent-checkpoint]\nsource_type = "local"\nsource = "${clone}"\n\n`);
  });

  it('uninstall of a Codex settings install removes the trust entries of the hooks it removed, and only those', async () => {
    const config = join(sandbox.home, '.codex', 'config.toml');
    mkdirSync(dirname(config), { recursive: true });
    writeFileSync(config, 'model = "gpt-5.5"\n');
    expect((await run(['install', '--agent', 'codex', '--with-context'])).code).toBe(0);
    const hooksFile = join(sandbox.home, '.codex', 'hooks.json');
    const trusted = ['stop', 'session_start', 'pre_compact'].map((e) => `[hooks.state."${hooksFile}:${e}:0:0"]\ntrusted_hash = "sha256:1"\n`).join('\n');
    const theirs = '\n[hooks.state."/other/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:2"\n';
    writeFileSync(config, `model = "gpt-5.5"\n\n${trusted}${theirs}`);
    const removed = await run(['uninstall', '--agent', 'codex']);
    expect(removed).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(config, 'utf8')).toBe(`model = "gpt-5.5"\n\n${theirs.slice(1)}`);
  });
});
