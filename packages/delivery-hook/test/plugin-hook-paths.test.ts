import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * Issue 23: a plugin installed under a path a user can have — with `"`, `'`, `$(…)`, backquotes and
 * spaces — still starts our bin from every hook, and nothing in the path runs. Each hooks file is
 * installed into such a directory, and each hook command is run exactly as the pinned CLI runs it:
 * Claude Code and Codex CLI start the sh launcher (hooks/run-hook.sh), which starts our bin.
 * - Claude Code 2.1.330: the shell-form command as written (it substitutes `${CLAUDE_PLUGIN_ROOT}`
 *   only into exec-form `args`), `CLAUDE_PLUGIN_ROOT` in the environment, `spawn(command, { shell:
 *   true })` (/bin/sh on POSIX);
 * - Codex CLI 0.169: `${PLUGIN_ROOT}` pasted into the command as text (its app-server `hooks/list`
 *   shows the pasted command), `PLUGIN_ROOT`/`CLAUDE_PLUGIN_ROOT` in the environment (seen in a hook's
 *   `env`), run through the shell (/bin/sh here);
 * - Gemini CLI 0.61: every string of hooks.json hydrated with `${extensionPath}` as text
 *   (`recursivelyHydrateStrings`), `$GEMINI_PROJECT_DIR`… shell-escaped into the command
 *   (`expandCommand`), the handler's `env` merged into the environment, `bash -c <command>`, which
 *   starts the same sh launcher from `$AGENT_CHECKPOINT_EXTENSION_PATH`.
 * The bin is the one built from these sources (the plugin root's `dist` links to it). Windows is not
 * run here (cmd.exe cannot run here; Codex's `commandWindows` is run through /bin/sh instead): Claude rewrites `${CLAUDE_PLUGIN_ROOT}` for PowerShell itself, and the node forms Codex
 * (cmd.exe) and Gemini (PowerShell) run there hold no `$`, quote or path for them to read
 * (docs/troubleshooting.md).
 */

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const builtDist = join(repoRoot, 'packages', 'delivery-hook', 'dist');
const HOSTILE_DIR = `inst "dq" 'sq' $(touch MARKER1) \`touch MARKER2\` ; touch MARKER3 #`;

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Installed {
  readonly base: string;
  /** The plugin root (Claude, Codex) or extension root (Gemini), under {@link HOSTILE_DIR}. */
  readonly root: string;
  /** A directory outside any repository, where the hooks run. */
  readonly cwd: string;
}

/** A plugin root under a hostile path whose `bundle` directory is the built bin's. */
function install(bundle: string): Installed {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'ac-plugin-path-')));
  temps.push(base);
  const root = join(base, HOSTILE_DIR, 'agent-checkpoint');
  mkdirSync(dirname(join(root, bundle)), { recursive: true });
  symlinkSync(builtDist, join(root, bundle));
  // The sh launcher every hook starts on POSIX (a copy: it finds dist/ beside its own directory).
  const hooks = join(root, dirname(bundle), 'hooks');
  mkdirSync(hooks, { recursive: true });
  copyFileSync(join(repoRoot, 'plugins', 'agent-checkpoint', 'hooks', 'run-hook.sh'), join(hooks, 'run-hook.sh'));
  const cwd = join(base, 'work');
  mkdirSync(cwd);
  return { base, root, cwd };
}

/** Files named MARKER* anywhere under `dir`: something in the install path ran. */
function markers(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /(^|\/)MARKER\d$/.test(f));
}

interface Handler {
  readonly command: string;
  readonly env?: Record<string, string>;
}

/** Every handler of a hooks file, with its event. */
function handlers(file: unknown): { event: string; handler: Handler }[] {
  const hooks = (file as { hooks: Record<string, { hooks: Handler[] }[]> }).hooks;
  return Object.entries(hooks).flatMap(([event, groups]) => groups.flatMap((g) => g.hooks.map((handler) => ({ event, handler }))));
}

function hookEnv(installed: Installed, extra: Record<string, string> = {}): Record<string, string> {
  // A user configuration file: the launcher then starts node for the per-tool-call hooks too.
  const config = join(installed.base, 'config.json');
  writeFileSync(config, '{}');
  return {
    AGENT_CHECKPOINT_CONFIG: config,
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: join(installed.base, 'home'),
    AGENT_CHECKPOINT_STATE_DIR: join(installed.base, 'state'),
    AGENT_CHECKPOINT_DEBUG: '1',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CEILING_DIRECTORIES: installed.base,
    ...extra,
  };
}

/** Run one hook command in a shell as the CLI does, with `{}` on stdin; our bin says what it did on stderr (debug). */
function runHook(shell: string, command: string, installed: Installed, env: Record<string, string>): { code: number | null; stderr: string } {
  const r = spawnSync(shell, ['-c', command], { cwd: installed.cwd, env, input: '{}', encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stderr: r.stderr };
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(join(repoRoot, file), 'utf8'));
const OUR_BIN = /^agent-checkpoint(-hook)?: /m;

describe('plugin hook commands under an install path with ", \', $(…), ` and spaces', () => {
  it('Claude Code: every hook starts our bin from $CLAUDE_PLUGIN_ROOT, nothing in the path runs', () => {
    const installed = install('dist');
    const all = handlers(readJson('plugins/agent-checkpoint/hooks/claude-hooks.json'));
    expect(all.length).toBeGreaterThan(0);
    for (const { event, handler } of all) {
      const result = runHook('/bin/sh', handler.command, installed, hookEnv(installed, { CLAUDE_PLUGIN_ROOT: installed.root }));
      expect(result.code, `${event}: ${result.stderr}`).toBe(0);
      expect(result.stderr, event).toMatch(OUR_BIN);
    }
    expect(markers(installed.base)).toEqual([]);
  });

  it('Codex CLI: every hook starts our bin although ${PLUGIN_ROOT} is pasted as text, nothing in the path runs', () => {
    const installed = install('dist');
    const all = handlers(readJson('plugins/agent-checkpoint/hooks/codex-hooks.json'));
    expect(all.length).toBeGreaterThan(0);
    for (const { event, handler } of all) {
      // Nothing for Codex to paste: the root is only the shell variable $PLUGIN_ROOT.
      expect(handler.command, event).not.toContain('${');
      const command = handler.command.replaceAll('${PLUGIN_ROOT}', installed.root);
      const result = runHook('/bin/sh', command, installed, hookEnv(installed, { PLUGIN_ROOT: installed.root, CLAUDE_PLUGIN_ROOT: installed.root }));
      expect(result.code, `${event}: ${result.stderr}`).toBe(0);
      expect(result.stderr, event).toMatch(OUR_BIN);
    }
    expect(markers(installed.base)).toEqual([]);
  });

  it('Codex CLI on Windows: every hook has a commandWindows with the same mode and agent, no $, quote or path, that starts our bin', () => {
    // Codex 0.169 runs `commandWindows` (serde alias `command_windows`) instead of `command` on Windows,
    // through `%COMSPEC% /C`, where `sh "$PLUGIN_ROOT/…"` cannot run. cmd.exe cannot run here: the
    // command is checked for what cmd would misread, then run through /bin/sh as the nearest check.
    const installed = install('dist');
    const all = handlers(readJson('plugins/agent-checkpoint/hooks/codex-hooks.json')) as { event: string; handler: Handler & { commandWindows?: string } }[];
    expect(all.length).toBeGreaterThan(0);
    for (const { event, handler } of all) {
      const windows = handler.commandWindows;
      expect(windows, event).toBeTypeOf('string');
      const posixArgs = /run-hook\.sh" (.+)$/.exec(handler.command)?.[1];
      expect(posixArgs, event).toBeDefined();
      expect(windows, event).toBe(`node -e "require(process.env.PLUGIN_ROOT+'/dist/agent-checkpoint-hook.cjs')" agent-checkpoint-hook ${posixArgs}`);
      // cmd.exe and PowerShell read none of these: no variable, escape, pipe or redirection, and the
      // only double quotes wrap the -e script (which holds no double quote itself).
      expect(windows!.replace(/^node -e "[^"]*" /, ''), event).toMatch(/^[a-z -]+$/);
      expect(windows, event).not.toMatch(/[$%^&|<>`\\]/);
      const result = runHook('/bin/sh', windows!, installed, hookEnv(installed, { PLUGIN_ROOT: installed.root, CLAUDE_PLUGIN_ROOT: installed.root }));
      expect(result.code, `${event}: ${result.stderr}`).toBe(0);
      expect(result.stderr, event).toMatch(OUR_BIN);
    }
    expect(markers(installed.base)).toEqual([]);
  });

  it('Gemini CLI: every hook starts our bin although ${extensionPath} is pasted into hooks.json as text, nothing in the path runs', () => {
    const installed = install(join('plugins', 'agent-checkpoint', 'dist'));
    // recursivelyHydrateStrings: `${name}` in every string, the value as text.
    const values: Record<string, string> = { extensionPath: installed.root, workspacePath: installed.cwd, '/': '/', pathSeparator: '/' };
    const hydrated = JSON.parse(JSON.stringify(readJson('hooks/hooks.json')), (_key, value: unknown) =>
      typeof value === 'string' ? value.replace(/\$\{(.*?)\}/g, (match, name: string) => values[name] ?? match) : value,
    ) as unknown;
    const all = handlers(hydrated);
    expect(all.length).toBeGreaterThan(0);
    const quoted = `'${installed.cwd.replaceAll("'", "'\\''")}'`;
    for (const { event, handler } of all) {
      // expandCommand: the project dir shell-escaped into the command.
      const command = handler.command.replace(/\$GEMINI_PROJECT_DIR|\$GEMINI_CWD|\$CLAUDE_PROJECT_DIR/g, () => quoted);
      const env = hookEnv(installed, { GEMINI_PROJECT_DIR: installed.cwd, GEMINI_CWD: installed.cwd, CLAUDE_PROJECT_DIR: installed.cwd, ...handler.env });
      const result = runHook('bash', command, installed, env);
      expect(result.code, `${event}: ${result.stderr}`).toBe(0);
      expect(result.stderr, event).toMatch(OUR_BIN);
    }
    expect(markers(installed.base)).toEqual([]);
  });

  it('Gemini CLI on Windows: PowerShell skips the bash lines as a block comment and runs a node form with no $, quote or path', () => {
    // Gemini 0.61 runs the same command with PowerShell there (`-Command`, `; if ($LASTEXITCODE …`
    // appended). PowerShell cannot run here: its reading is spelled out — `` `# `` is a literal `#`
    // argument of `echo`, `<#`…`#>` a block comment (whitespace inside the statement, so `> $null`
    // discards the `#`) — and the node statement is run through /bin/sh as the nearest check.
    const installed = install(join('plugins', 'agent-checkpoint', 'dist'));
    const all = handlers(readJson('hooks/hooks.json'));
    expect(all.length).toBe(5);
    for (const { event, handler } of all) {
      const asPowerShell = /^echo `# <#[^]*?#> > \$null; (node -e "[^"]*" agent-checkpoint-hook [a-z -]+)$/.exec(handler.command);
      expect(asPowerShell, `${event}: ${handler.command}`).not.toBeNull();
      const node = asPowerShell![1]!;
      const posixArgs = /run-hook\.sh" ([a-z -]+)\n/.exec(handler.command)?.[1];
      expect(node, event).toBe(`node -e "require(process.env.AGENT_CHECKPOINT_EXTENSION_PATH+'/plugins/agent-checkpoint/dist/agent-checkpoint-hook.cjs')" agent-checkpoint-hook ${posixArgs}`);
      expect(node, event).not.toMatch(/[$%^&|<>`\\]/);
      const result = runHook('/bin/sh', node, installed, hookEnv(installed, { AGENT_CHECKPOINT_EXTENSION_PATH: installed.root }));
      expect(result.code, `${event}: ${result.stderr}`).toBe(0);
      expect(result.stderr, event).toMatch(OUR_BIN);
    }
    expect(markers(installed.base)).toEqual([]);
  });
});
