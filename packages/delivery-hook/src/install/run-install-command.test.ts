import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { HOOK_BUNDLE, runHookBundle } from '../test-support/run-hook-bundle.ts';

// install / uninstall through the real bundle, as a user runs them, on temp HOMEs and repositories.

let sandbox: HookSandbox;
beforeEach(() => {
  sandbox = createHookSandbox('ac-install-');
});
afterEach(() => sandbox.remove());

const run = (args: string[], env: Record<string, string> = {}, cwd?: string) =>
  runHookBundle({ args, env: { ...sandbox.env, NO_COLOR: '1', ...env }, ...(cwd === undefined ? {} : { cwd }) });

const NODE = realpathSync(process.execPath);
const BUNDLE = realpathSync(HOOK_BUNDLE);
const command = (agent: string) => `${NODE} ${BUNDLE} ${agent}`;

function writeFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const CLAUDE_SETTINGS_WITH_COMMENTS = `{
  // Personal settings — comments and layout must survive.
  "model": "opus",
  "permissions": { "allow": ["Bash(npm test)"] }, /* inline */
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "~/bin/guard.sh" } ] }
    ],
    "Stop": [
      { "hooks": [ { "type": "command", "command": "notify-send done" } ] } // theirs
    ]
  }
}
`;

describe('install / uninstall (Claude Code)', () => {
  it('adds the Stop hook with absolute node + bundle paths, keeps comments and other hooks, and uninstall restores the bytes', async () => {
    const settings = join(sandbox.home, '.claude', 'settings.json');
    writeFile(settings, CLAUDE_SETTINGS_WITH_COMMENTS);

    const installed = await run(['install', '--agent', 'claude']);
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain(`Claude Code (user): registered the hook in ${settings}`);
    const text = readFileSync(settings, 'utf8');
    expect(text).toContain('// Personal settings — comments and layout must survive.');
    expect(text).toContain('/* inline */');
    expect(text).toContain('// theirs');
    expect(text).toContain('{ "matcher": "Bash", "hooks": [ { "type": "command", "command": "~/bin/guard.sh" } ] }');
    const value = parse(text) as { hooks: { Stop: { hooks: { command: string; timeout: number; type: string }[] }[] } };
    expect(value.hooks.Stop).toHaveLength(2);
    expect(value.hooks.Stop[1]).toEqual({ hooks: [{ type: 'command', command: command('claude'), timeout: 30 }] });
    // The installed command really runs the hook (a pass: empty stdout, exit 0).
    const hook = execFileSync('/bin/sh', ['-c', value.hooks.Stop[1]!.hooks[0]!.command], { input: '{}', env: sandbox.env, encoding: 'utf8' });
    expect(hook).toBe('');

    // Re-running install changes nothing, byte for byte (and writes no backup).
    const backups = readdirSync(join(sandbox.stateDir, 'installs', 'backups'));
    const again = await run(['install', '--agent', 'claude']);
    expect(again.stdout).toContain('already registered');
    expect(readFileSync(settings, 'utf8')).toBe(text);
    expect(readdirSync(join(sandbox.stateDir, 'installs', 'backups'))).toEqual(backups);

    const removed = await run(['uninstall', '--agent', 'claude']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('byte for byte');
    expect(readFileSync(settings, 'utf8')).toBe(CLAUDE_SETTINGS_WITH_COMMENTS);
  });

  it('a file edited after install keeps those edits: only our entry is removed, and the output says so', async () => {
    const settings = join(sandbox.home, '.claude', 'settings.json');
    writeFile(settings, CLAUDE_SETTINGS_WITH_COMMENTS);
    await run(['install', '--agent', 'claude']);
    const installed = readFileSync(settings, 'utf8');
    writeFileSync(settings, installed.replace('"model": "opus"', '"model": "sonnet"'));

    const removed = await run(['uninstall', '--agent', 'claude']);
    expect(removed.stdout).toContain('the file changed since install, so only our entries were removed');
    expect(readFileSync(settings, 'utf8')).toBe(CLAUDE_SETTINGS_WITH_COMMENTS.replace('"model": "opus"', '"model": "sonnet"'));
  });

  it('creates a missing file (and its directory) and uninstall deletes both', async () => {
    const settings = join(sandbox.home, '.claude', 'settings.json');
    const installed = await run(['install', '--agent', 'claude']);
    expect(installed.stdout).toContain(`created ${settings}`);
    expect(JSON.parse(readFileSync(settings, 'utf8'))).toEqual({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: command('claude'), timeout: 30 }] }] },
      // The user had no status line: ours is installed (issue 14 point 8).
      statusLine: { type: 'command', command: command('statusline') },
    });
    const removed = await run(['uninstall', '--agent', 'claude']);
    expect(removed.stdout).toContain('deleted');
    expect(existsSync(settings)).toBe(false);
    expect(existsSync(join(sandbox.home, '.claude'))).toBe(false);
  });

  it('--dry-run shows the diff and writes nothing, for install and uninstall', async () => {
    const settings = join(sandbox.home, '.claude', 'settings.json');
    writeFile(settings, CLAUDE_SETTINGS_WITH_COMMENTS);
    const dry = await run(['install', '--agent', 'claude', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`--- ${settings}`);
    expect(dry.stdout).toContain(`+            "command": "${command('claude')}",`);
    expect(readFileSync(settings, 'utf8')).toBe(CLAUDE_SETTINGS_WITH_COMMENTS);
    expect(existsSync(join(sandbox.stateDir, 'installs'))).toBe(false);

    const missing = join(sandbox.home, '.gemini', 'settings.json');
    const dryCreate = await run(['install', '--agent', 'gemini', '--dry-run']);
    expect(dryCreate.stdout).toContain('--- /dev/null');
    expect(existsSync(missing)).toBe(false);

    await run(['install', '--agent', 'claude']);
    const installed = readFileSync(settings, 'utf8');
    const dryRemove = await run(['uninstall', '--agent', 'claude', '--dry-run']);
    expect(dryRemove.stdout).toContain(`-            "command": "${command('claude')}",`);
    expect(readFileSync(settings, 'utf8')).toBe(installed);
  });

  it('replaces older entries of ours (the exact form earlier installs wrote, another path, .mjs) instead of adding a second one', async () => {
    const settings = join(sandbox.home, '.claude', 'settings.json');
    const old = `{\n  "hooks": {\n    "Stop": [\n      { "hooks": [ { "type": "command", "command": "/old/bin/node /old/lib/agent-checkpoint-hook.cjs claude", "timeout": 5 } ] },\n      { "hooks": [ { "type": "command", "command": "/old/bin/node '/old place/agent-checkpoint-hook.mjs' claude" } ] }\n    ]\n  }\n}\n`;
    writeFile(settings, old);
    const installed = await run(['install', '--agent', 'claude']);
    expect(installed.stdout).toContain('updated the hook');
    const value = parse(readFileSync(settings, 'utf8')) as { hooks: { Stop: unknown[] } };
    expect(value.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: command('claude'), timeout: 30 }] }]);
    // The original held our (old) entries: not a state worth restoring, so uninstall removes ours surgically.
    await run(['uninstall', '--agent', 'claude']);
    expect(readFileSync(settings, 'utf8')).toBe('{}\n');
  });

  it("never replaces or removes a user's command that merely mentions agent-checkpoint-hook (npx, a wrapper, a notification)", async () => {
    const settings = join(sandbox.home, '.claude', 'settings.json');
    const theirs = [
      'npx agent-checkpoint-hook claude',
      `/usr/local/bin/my-wrapper.sh ${NODE} ${BUNDLE} claude`,
      `time ${NODE} ${BUNDLE} claude`,
      "notify-send 'agent-checkpoint-hook ran'",
      `${NODE} ${BUNDLE} claude --debug`,
    ];
    const old = `{\n  "hooks": {\n    "Stop": [\n${theirs.map((c) => `      { "hooks": [ { "type": "command", "command": ${JSON.stringify(c)} } ] }`).join(',\n')}\n    ]\n  }\n}\n`;
    writeFile(settings, old);
    const installed = await run(['install', '--agent', 'claude']);
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain('registered the hook in');
    expect(installed.stdout).toContain(`left your own Stop command as it is: ${theirs[1]}`);
    const value = parse(readFileSync(settings, 'utf8')) as { hooks: { Stop: { hooks: { command: string }[] }[] } };
    expect(value.hooks.Stop.map((g) => g.hooks[0]!.command)).toEqual([...theirs, command('claude')]);

    // The file changed since install: uninstall edits surgically and removes exactly the entry it wrote.
    writeFileSync(settings, readFileSync(settings, 'utf8').replace('"hooks": {', '"model": "opus",\n  "hooks": {'));
    const removed = await run(['uninstall', '--agent', 'claude']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('only our entries were removed');
    expect(readFileSync(settings, 'utf8')).toBe(old.replace('"hooks": {', '"model": "opus",\n  "hooks": {'));
  });

  it('project scope writes <repo>/.claude/settings.json for a subdirectory cwd', async () => {
    const repo = join(sandbox.root, 'repo');
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    execFileSync('git', ['init', '-q', repo], { env: sandbox.env });
    const installed = await run(['install', '--agent', 'claude', '--scope', 'project', '--cwd', join(repo, 'src', 'deep')]);
    expect(installed.code).toBe(0);
    expect(existsSync(join(repo, '.claude', 'settings.json'))).toBe(true);
    expect(existsSync(join(sandbox.home, '.claude'))).toBe(false);
    await run(['uninstall', '--agent', 'claude', '--scope', 'project'], {}, repo);
    expect(existsSync(join(repo, '.claude'))).toBe(false);
  });

  it('a settings file that is a symlink (dotfiles) stays a symlink; the target is edited and restored', async () => {
    const target = join(sandbox.root, 'dotfiles', 'claude-settings.json');
    writeFile(target, CLAUDE_SETTINGS_WITH_COMMENTS);
    mkdirSync(join(sandbox.home, '.claude'), { recursive: true });
    symlinkSync(target, join(sandbox.home, '.claude', 'settings.json'));
    expect((await run(['install', '--agent', 'claude'])).code).toBe(0);
    expect(lstatSync(join(sandbox.home, '.claude', 'settings.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toContain(command('claude'));
    expect((await run(['uninstall', '--agent', 'claude'])).code).toBe(0);
    expect(lstatSync(join(sandbox.home, '.claude', 'settings.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe(CLAUDE_SETTINGS_WITH_COMMENTS);
  });

  it('refuses a file it cannot parse, changes nothing, exits 1', async () => {
    const settings = join(sandbox.home, '.claude', 'settings.json');
    writeFile(settings, '{ "hooks": { "Stop": [ }');
    const result = await run(['install', '--agent', 'claude']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot edit .*settings\.json: 1:\d+: /);
    expect(readFileSync(settings, 'utf8')).toBe('{ "hooks": { "Stop": [ }');
  });
});

describe('opt-in context hooks (--with-context)', () => {
  it('adds SessionStart, PreCompact (Gemini: PreCompress) the monitor (PostToolUse, Gemini: AfterTool) and the prompt hook (UserPromptSubmit, Gemini: BeforeAgent) next to the turn-end hook; a later plain install keeps them; uninstall removes all', async () => {
    const claude = join(sandbox.home, '.claude', 'settings.json');
    writeFile(claude, CLAUDE_SETTINGS_WITH_COMMENTS);
    expect((await run(['install', '--agent', 'claude', '--with-context'])).code).toBe(0);
    const value = parse(readFileSync(claude, 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(Object.keys(value.hooks)).toEqual(['PreToolUse', 'Stop', 'SessionStart', 'PreCompact', 'PostToolUse', 'UserPromptSubmit']);
    expect(value.hooks['SessionStart']).toEqual([{ hooks: [{ type: 'command', command: `${NODE} ${BUNDLE} session-start claude`, timeout: 30 }] }]);
    expect(value.hooks['PreCompact']).toEqual([{ hooks: [{ type: 'command', command: `${NODE} ${BUNDLE} pre-compact claude`, timeout: 30 }] }]);
    expect(value.hooks['PostToolUse']).toEqual([{ hooks: [{ type: 'command', command: `${NODE} ${BUNDLE} post-tool claude`, timeout: 30 }] }]);
    expect(value.hooks['UserPromptSubmit']).toEqual([{ hooks: [{ type: 'command', command: `${NODE} ${BUNDLE} prompt-submit claude`, timeout: 30 }] }]);
    const installed = readFileSync(claude, 'utf8');
    expect((await run(['install', '--agent', 'claude'])).stdout).toContain('already registered');
    expect(readFileSync(claude, 'utf8')).toBe(installed);
    await run(['uninstall', '--agent', 'claude']);
    expect(readFileSync(claude, 'utf8')).toBe(CLAUDE_SETTINGS_WITH_COMMENTS);

    await run(['install', '--agent', 'gemini', '--with-context']);
    const gemini = parse(readFileSync(join(sandbox.home, '.gemini', 'settings.json'), 'utf8')) as { hooks: Record<string, { hooks: { name: string }[] }[]> };
    expect(Object.keys(gemini.hooks)).toEqual(['AfterAgent', 'SessionStart', 'PreCompress', 'AfterTool', 'BeforeAgent']);
    expect(gemini.hooks['PreCompress']?.[0]?.hooks[0]?.name).toBe('agent-checkpoint-pre-compact');
    expect(gemini.hooks['AfterTool']?.[0]?.hooks[0]?.name).toBe('agent-checkpoint-monitor');
    expect(gemini.hooks['BeforeAgent']?.[0]?.hooks[0]?.name).toBe('agent-checkpoint-prompt-submit');
    expect((await run(['uninstall', '--agent', 'claude', '--with-context'])).code).toBe(2);
  });
});

describe('install / uninstall (Gemini CLI, Codex CLI)', () => {
  it('Gemini: named hook, timeout in milliseconds, matcher "*", other settings untouched', async () => {
    const settings = join(sandbox.home, '.gemini', 'settings.json');
    const original = '{\n  "security": { "auth": { "selectedType": "gemini-api-key" } },\n  "ui": { "hideBanner": true }\n}\n';
    writeFile(settings, original);
    const installed = await run(['install', '--agent', 'gemini']);
    expect(installed.code).toBe(0);
    const value = parse(readFileSync(settings, 'utf8')) as Record<string, unknown>;
    expect(value['hooks']).toEqual({
      AfterAgent: [{ matcher: '*', hooks: [{ name: 'agent-checkpoint', type: 'command', command: command('gemini'), timeout: 30_000 }] }],
    });
    expect(value['security']).toEqual({ auth: { selectedType: 'gemini-api-key' } });
    await run(['uninstall', '--agent', 'gemini']);
    expect(readFileSync(settings, 'utf8')).toBe(original);
  });

  it('Gemini project scope mentions folder trust', async () => {
    const repo = join(sandbox.root, 'repo');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q', repo], { env: sandbox.env });
    const installed = await run(['install', '--agent', 'gemini', '--scope', 'project', '--cwd', repo]);
    expect(installed.stdout).toContain('only in trusted folders');
  });

  it('Codex: $CODEX_HOME/hooks.json, seconds, and the trust step is printed', async () => {
    const codexHome = join(sandbox.root, 'codex-home');
    const installed = await run(['install', '--agent', 'codex'], { CODEX_HOME: codexHome });
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain('Trust step (required)');
    expect(installed.stdout).toContain('/hooks');
    expect(JSON.parse(readFileSync(join(codexHome, 'hooks.json'), 'utf8'))).toEqual({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: command('codex'), timeout: 30 }] }] },
    });
    expect(existsSync(join(sandbox.home, '.codex'))).toBe(false);
    await run(['uninstall', '--agent', 'codex'], { CODEX_HOME: codexHome });
    expect(existsSync(join(codexHome, 'hooks.json'))).toBe(false);
  });

  it("Copilot: ~/.copilot/settings.json keeps the user's keys and hooks, the agentStop entry runs the hook, uninstall restores the bytes", async () => {
    const settings = join(sandbox.home, '.copilot', 'settings.json');
    // Copilot CLI 1.0.102's own form for the user's hook (flat handler, `bash`, `timeoutSec`) beside other settings.
    const before = '{\n  "theme": "dark",\n  "hooks": {\n    "agentStop": [{ "type": "command", "bash": "notify-send done", "timeoutSec": 5 }]\n  }\n}\n';
    writeFile(settings, before);
    const installed = await run(['install', '--agent', 'copilot']);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain(`GitHub Copilot CLI (user): registered the hook in ${settings}`);
    const value = parse(readFileSync(settings, 'utf8')) as { theme: string; hooks: { agentStop: unknown[] } };
    expect(value.theme).toBe('dark');
    expect(value.hooks.agentStop).toEqual([
      { type: 'command', bash: 'notify-send done', timeoutSec: 5 },
      // The Claude-compatible group form, which 1.0.102 runs too (checked against the loopback mock).
      { hooks: [{ type: 'command', command: command('copilot'), timeout: 30 }] },
    ]);
    // The installed command really runs the hook: an agentStop payload outside a repository passes.
    const stop = await runHookBundle({ args: ['copilot'], stdin: JSON.stringify({ sessionId: 's', timestamp: 1, cwd: sandbox.root, stop_hook_active: false }), env: sandbox.env });
    expect([stop.code, stop.stdout]).toEqual([0, '']);
    const doctor = await run(['doctor']);
    expect(doctor.stdout).toContain('GitHub Copilot CLI (user): agentStop');
    const removed = await run(['uninstall', '--agent', 'copilot']);
    expect(removed.code).toBe(0);
    expect(readFileSync(settings, 'utf8')).toBe(before);
  });

  it('Copilot: $COPILOT_HOME replaces ~/.copilot', async () => {
    const copilotHome = join(sandbox.root, 'copilot-home');
    const installed = await run(['install', '--agent', 'copilot'], { COPILOT_HOME: copilotHome });
    expect(installed.code).toBe(0);
    expect(JSON.parse(readFileSync(join(copilotHome, 'settings.json'), 'utf8'))).toEqual({
      hooks: { agentStop: [{ hooks: [{ type: 'command', command: command('copilot'), timeout: 30 }] }] },
    });
    expect(existsSync(join(sandbox.home, '.copilot'))).toBe(false);
  });

  it('--agent all installs for the agents present and skips the others; uninstall --agent all removes every one', async () => {
    mkdirSync(join(sandbox.home, '.gemini'));
    mkdirSync(join(sandbox.home, '.codex'));
    const installed = await run(['install', '--agent', 'all'], { PATH: '/usr/bin:/bin' });
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain('Skipping Claude Code');
    expect(existsSync(join(sandbox.home, '.gemini', 'settings.json'))).toBe(true);
    expect(existsSync(join(sandbox.home, '.codex', 'hooks.json'))).toBe(true);
    expect(existsSync(join(sandbox.home, '.claude'))).toBe(false);
    const removed = await run(['uninstall', '--agent', 'all'], { PATH: '/usr/bin:/bin' });
    expect(removed.code).toBe(0);
    expect(readdirSync(join(sandbox.home, '.gemini'))).toEqual([]);
    expect(readdirSync(join(sandbox.home, '.codex'))).toEqual([]);
  });

  it('--print prints the snippet per agent and writes nothing', async () => {
    const printed = await run(['install', '--agent', 'codex', '--print']);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain(`merge into ${join(sandbox.home, '.codex', 'hooks.json')}`);
    const json = printed.stdout.slice(printed.stdout.indexOf('{'), printed.stdout.lastIndexOf('}') + 1);
    expect(JSON.parse(json)).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: command('codex'), timeout: 30 }] }] } });
    expect(existsSync(join(sandbox.home, '.codex'))).toBe(false);
  });
});

describe('usage', () => {
  it('--help exits 0; missing or bad options exit 2 with the usage on stderr', async () => {
    const help = await run(['install', '--help']);
    expect(help).toMatchObject({ code: 0 });
    expect(help.stdout).toContain('Usage:');
    expect((await run(['install'])).code).toBe(2);
    const bad = await run(['install', '--agent', 'cursor']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("argument 'cursor' is invalid. Allowed choices are claude, gemini, codex, copilot, qwen, pi, all.");
    expect((await run(['install', '--agent', 'claude', '--scope', 'global'])).code).toBe(2);
    expect((await run(['uninstall', '--agent', 'claude', '--print'])).code).toBe(2);
    expect((await run(['install', '--agent', 'claude', '--bogus'])).code).toBe(2);
  });

  it('output has no colour codes when stdout is not a terminal, even without NO_COLOR', async () => {
    const result = await runHookBundle({ args: ['install', '--agent', 'claude', '--dry-run'], env: sandbox.env });
    expect(result.stdout).not.toMatch(/\u001b\[/);
    const forced = await runHookBundle({ args: ['install', '--agent', 'claude', '--dry-run'], env: { ...sandbox.env, FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(/\u001b\[/);
  });

  it('install records are private to the user', async () => {
    await run(['install', '--agent', 'claude']);
    const dir = join(sandbox.stateDir, 'installs');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
  });
});

describe('Claude Code status line (install adds ours only when there is none)', () => {
  it('the user\'s own status line is never replaced, and uninstall keeps it', async () => {
    const settings = join(sandbox.home, '.claude', 'settings.json');
    const theirs = { type: 'command', command: '~/bin/my-statusline.sh agent-checkpoint-hook' };
    writeFile(settings, `${JSON.stringify({ statusLine: theirs }, null, 2)}\n`);
    const installed = await run(['install', '--agent', 'claude']);
    expect(installed.code).toBe(0);
    expect(installed.stdout).not.toContain('statusLine →');
    expect(JSON.parse(readFileSync(settings, 'utf8'))['statusLine']).toEqual(theirs);
    // The file changed since install: uninstall removes only our entries, and the status line is theirs.
    const edited = JSON.parse(readFileSync(settings, 'utf8')) as Record<string, unknown>;
    writeFile(settings, `${JSON.stringify({ ...edited, model: 'opus' }, null, 2)}\n`);
    expect((await run(['uninstall', '--agent', 'claude'])).code).toBe(0);
    expect(JSON.parse(readFileSync(settings, 'utf8'))).toEqual({ statusLine: theirs, model: 'opus' });
  });

  it('ours is added next to the user\'s other settings, said in the output, and removed by uninstall after other edits', async () => {
    const settings = join(sandbox.home, '.claude', 'settings.json');
    writeFile(settings, '{\n  "model": "opus"\n}\n');
    const installed = await run(['install', '--agent', 'claude']);
    expect(installed.stdout).toContain(`statusLine → ${command('statusline')}`);
    // Said in words, with the way to skip it: it changes what the user sees in Claude Code.
    expect(installed.stdout).toContain('status line: added ours ([CTX: … L2] [CKPT: …]), as your settings had none; --no-status-line skips it, uninstall removes it');
    const after = JSON.parse(readFileSync(settings, 'utf8')) as Record<string, unknown>;
    expect(after['statusLine']).toEqual({ type: 'command', command: command('statusline') });
    // Installing again changes nothing (the status line is there now).
    expect((await run(['install', '--agent', 'claude'])).stdout).toContain('already registered');
    writeFile(settings, `${JSON.stringify({ ...after, theme: 'dark' }, null, 2)}\n`);
    expect((await run(['uninstall', '--agent', 'claude'])).code).toBe(0);
    expect(JSON.parse(readFileSync(settings, 'utf8'))).toEqual({ model: 'opus', theme: 'dark' });
  });

  it('--no-status-line registers the hooks without it, and says nothing about one; --dry-run says it would add it', async () => {
    const settings = join(sandbox.home, '.claude', 'settings.json');
    writeFile(settings, '{\n  "model": "opus"\n}\n');
    const dry = await run(['install', '--agent', 'claude', '--dry-run']);
    expect(dry.stdout).toContain('status line: would add ours');
    const installed = await run(['install', '--agent', 'claude', '--no-status-line']);
    expect(installed.code).toBe(0);
    expect(installed.stdout).not.toContain('status line');
    expect(installed.stdout).not.toContain('statusLine →');
    const after = JSON.parse(readFileSync(settings, 'utf8')) as Record<string, unknown>;
    expect(after['statusLine']).toBeUndefined();
    expect(after['hooks']).toBeDefined();
  });

  it('Gemini and Codex settings get no status line', async () => {
    await run(['install', '--agent', 'gemini']);
    expect(readFileSync(join(sandbox.home, '.gemini', 'settings.json'), 'utf8')).not.toContain('statusLine');
  });
});
