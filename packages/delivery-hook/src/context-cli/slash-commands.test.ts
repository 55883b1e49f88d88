import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quote } from 'shell-quote';
import { parse as parseToml } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { HOOK_BUNDLE } from '../test-support/run-hook-bundle.ts';

// Issue 23: slash commands and skills pass the user's arguments to the bin as arguments, never
// through shell interpolation, in the shapes each agent really delivers. Each agent's substitution is
// reproduced exactly as its pinned CLI does it, then the resulting command runs in bash (the shell
// each uses on POSIX) against the built bin:
// - Gemini CLI 0.61 (bundle/chunk-*.js, ShellProcessor): `{{args}}` inside `!{…}` becomes
//   `escapeShellArg(args, 'bash')` = shell-quote's `quote([args])` (empty args: nothing) — ONE word;
// - Claude Code 2.1.330: `$ARGUMENTS` is pasted unescaped (its own importer: "Claude Code's
//   `$ARGUMENTS` substitution doesn't [shell-escape]"), then `!`…`` and ```! blocks run in bash;
// - Codex CLI 0.169 skills: the model runs the command the SKILL.md names (no substitution).
// The Claude and Codex forms ask the model for the text as one single-quoted word ('\'' for ').

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

let sandbox: HookSandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

const PLAN = ['# Plan', '', ...Array.from({ length: 6 }, (_, i) => `- [ ] Move part ${i + 1} of billing into its own module`)].join('\n');

/** Argument texts a user could type (or paste): every shell metacharacter that must not run. */
const HOSTILE = "fix it; touch MARK1 $(touch MARK2) `touch MARK3` && touch MARK4 | it's done";

interface World {
  readonly sb: HookSandbox;
  readonly repo: string;
  /** The plugin root (Claude, Codex): its `dist` is the built bin. */
  readonly pluginRoot: string;
  /** Run a shell command line as the agent does: bash -c, in the project, with the sandbox env. */
  bash(command: string, env?: Record<string, string>): { code: number | null; stdout: string; stderr: string };
  /**
   * As {@link bash}, with the plugin's `bin/` first on PATH: where Claude Code 2.1.330 runs a
   * command's `!` lines and the model's Bash tool calls (e2e/test/plugin-command-paths.test.ts).
   */
  claudeBash(command: string): { code: number | null; stdout: string; stderr: string };
  /** Files named MARK* anywhere in the sandbox: a command the user's text started. */
  markers(): string[];
  handoffs(): string[];
}

function world(): World {
  const sb = createHookSandbox('ac-slash-');
  sandbox = sb;
  const repo = join(sb.root, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: sb.env });
  writeFileSync(join(repo, '.agent-checkpoint.json'), JSON.stringify({ context: { enabled: true, windowTokens: 200_000 }, handoff: { enabled: true } }));
  writeFileSync(join(repo, 'PLAN.md'), PLAN);
  // Where `gemini extensions install` puts the extension, and a plugin root: both run the built bin.
  const bundleDir = dirname(HOOK_BUNDLE);
  const geminiDist = join(sb.home, '.gemini', 'extensions', 'agent-checkpoint', 'plugins', 'agent-checkpoint');
  mkdirSync(geminiDist, { recursive: true });
  symlinkSync(bundleDir, join(geminiDist, 'dist'));
  const pluginRoot = join(sb.root, 'plugin');
  mkdirSync(join(pluginRoot, 'bin'), { recursive: true });
  symlinkSync(bundleDir, join(pluginRoot, 'dist'));
  copyFileSync(join(repoRoot, 'plugins', 'agent-checkpoint', 'bin', 'agent-checkpoint-hook'), join(pluginRoot, 'bin', 'agent-checkpoint-hook'));
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() && !e.isSymbolicLink() && e.name !== '.git' ? walk(join(dir, e.name)) : e.name.startsWith('MARK') ? [join(dir, e.name)] : []));
  const bash = (command: string, env: Record<string, string> = {}) => {
    const r = spawnSync('bash', ['-c', command], { cwd: repo, env: { ...sb.env, ...env }, encoding: 'utf8', timeout: 30_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  return {
    sb,
    repo,
    pluginRoot,
    bash,
    claudeBash: (command) => bash(command, { PATH: `${join(pluginRoot, 'bin')}:${sb.env['PATH'] ?? '/usr/bin:/bin'}` }),
    markers: () => walk(sb.root),
    handoffs: () => {
      const dir = join(repo, '.agent-checkpoint', 'handoffs');
      return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')) : [];
    },
  };
}

// ── Gemini CLI 0.61 ──

/** `extractInjections(prompt, '!{')` of Gemini CLI 0.61: brace-counted, trimmed. */
function geminiInjections(prompt: string): string[] {
  const out: string[] = [];
  let index = 0;
  while (index < prompt.length) {
    const start = prompt.indexOf('!{', index);
    if (start === -1) break;
    let depth = 1;
    let i = start + 2;
    for (; i < prompt.length && depth > 0; i += 1) {
      if (prompt[i] === '{') depth += 1;
      else if (prompt[i] === '}') depth -= 1;
    }
    if (depth !== 0) throw new Error('unclosed !{');
    out.push(prompt.slice(start + 2, i - 1).trim());
    index = i;
  }
  return out;
}

/** The shell command Gemini 0.61 runs for `/<name> <args>`: `{{args}}` → escapeShellArg(args, 'bash'). */
function geminiCommand(name: string, args: string): string {
  const toml = parseToml(readFileSync(join(repoRoot, 'commands', `${name}.toml`), 'utf8')) as { prompt: string };
  const [injection, ...more] = geminiInjections(toml.prompt);
  expect(more).toEqual([]);
  return injection!.replaceAll('{{args}}', args === '' ? '' : quote([args]));
}

describe('Gemini CLI commands (commands/*.toml): {{args}} arrives as one shell-quoted word', () => {
  it('/checkpoint --reason <words with ; $() ` && |>: a handoff with that reason, nothing run; --status and no args work too', () => {
    const w = world();
    const status = w.bash(geminiCommand('checkpoint', '--status'));
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^Context: /);
    expect(w.handoffs()).toEqual([]);
    const result = w.bash(geminiCommand('checkpoint', `--reason ${HOSTILE}`));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Handoff written');
    expect(w.markers()).toEqual([]);
    const [handoff] = w.handoffs();
    expect(readFileSync(join(w.repo, '.agent-checkpoint', 'handoffs', handoff!), 'utf8')).toContain('fix it; touch MARK1 $(touch MARK2)');
    expect(w.bash(geminiCommand('checkpoint', '')).stdout).toContain('Handoff written');
  });

  it('/shard PLAN.md --dry-run splits into the plan and the option', () => {
    const w = world();
    const result = w.bash(geminiCommand('shard', 'PLAN.md --dry-run'));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Dry run: would write');
  });

  it('/estimate <task with shell metacharacters>: estimated as the task, nothing run', () => {
    const w = world();
    const result = w.bash(geminiCommand('estimate', `-refactor ${HOSTILE}`));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Estimate: /);
    expect(w.markers()).toEqual([]);
  });
});

// ── Claude Code 2.1.330 and Codex CLI 0.169 ──

/**
 * A Claude command body as Claude Code 2.1.330 prepares it: `$ARGUMENTS` pasted as text (and
 * `${CLAUDE_PLUGIN_ROOT}` too, which is why no command names it: a plugin root with a `"`, `$(…)` or
 * a backquote broke or ran — e2e/test/plugin-command-paths.test.ts).
 */
function claudeBody(name: string, args: string, pluginRoot: string): string {
  const text = readFileSync(join(repoRoot, 'plugins', 'agent-checkpoint', 'commands', `${name}.md`), 'utf8');
  const body = text.replace(/^---\n[\s\S]*?\n---\n/, '');
  return body.replaceAll('${CLAUDE_PLUGIN_ROOT}', pluginRoot).replaceAll('$ARGUMENTS', args);
}

/** The shell blocks Claude Code runs before the model sees the body: ```! fences and !`…` spans. */
function claudeShellBlocks(body: string): string[] {
  const fenced = [...body.matchAll(/```!\s*\n?([\s\S]*?)\n?```/g)].map((m) => m[1]!.trim());
  const inline = [...body.matchAll(/(?<=^|\s)!`([^`]+)`/gm)].map((m) => m[1]!.trim());
  return [...fenced, ...inline].filter((c) => c !== '');
}

/** The command line a model writes from the documented form: the text as one single-quoted word. */
function modelCommand(documented: string, args: string): string {
  expect(documented).toContain("'<argument text>'");
  return documented.replace("'<argument text>'", args === '' ? '' : `'${args.replaceAll("'", "'\\''")}'`);
}

/** The command a Claude command tells the model to run (its one plain ``` block). */
function claudeDocumented(body: string): string {
  const blocks = [...body.matchAll(/```\n([\s\S]*?)\n```/g)].map((m) => m[1]!.trim());
  expect(blocks).toHaveLength(1);
  return blocks[0]!;
}

describe('Claude Code plugin commands (plugins/agent-checkpoint/commands/*.md): $ARGUMENTS is pasted unescaped', () => {
  it.each(['checkpoint', 'estimate', 'shard', 'checkpoint-report', 'checkpoint-off', 'checkpoint-on', 'checkpoint-status', 'checkpoint-doctor'])('/%s: no shell block Claude runs holds the arguments, so hostile ones run nothing', (name) => {
    const w = world();
    const body = claudeBody(name, HOSTILE, w.pluginRoot);
    expect(body, 'the plugin root, pasted as text by Claude Code').not.toContain(w.pluginRoot);
    for (const block of claudeShellBlocks(body)) {
      expect(block).not.toContain('MARK');
      w.claudeBash(block);
    }
    expect(w.markers()).toEqual([]);
  });

  it('the documented forms work with the text as the model passes it: --reason with metacharacters, --status, a plan with --dry-run, a task', () => {
    const w = world();
    const run = (name: string, args: string) => w.claudeBash(modelCommand(claudeDocumented(claudeBody(name, args, w.pluginRoot)), args));
    const reason = run('checkpoint', `--reason ${HOSTILE}`);
    expect(reason.code, reason.stderr).toBe(0);
    expect(reason.stdout).toContain('Handoff written');
    expect(run('checkpoint', '--status').stdout).toMatch(/^Context: /);
    expect(run('shard', 'PLAN.md --dry-run').stdout).toContain('Dry run: would write');
    expect(run('estimate', HOSTILE).stdout).toMatch(/^Estimate: /);
    expect(w.markers()).toEqual([]);
  });
});

describe('Codex CLI skills (plugins/agent-checkpoint/skills/*/SKILL.md): the model runs the named command', () => {
  /** The command a skill names, with its plugin root. */
  function skillCommand(name: string, pluginRoot: string): string {
    const text = readFileSync(join(repoRoot, 'plugins', 'agent-checkpoint', 'skills', name, 'SKILL.md'), 'utf8');
    const match = /^Run `(node "<plugin root>\/dist\/agent-checkpoint-hook\.cjs" [^`]*)`/m.exec(text);
    expect(match, `${name}/SKILL.md names no command`).not.toBeNull();
    return match![1]!.replace('<plugin root>', pluginRoot);
  }

  it('checkpoint, estimate and shard take the text as one word; hostile text runs nothing', () => {
    const w = world();
    const run = (name: string, args: string) => w.bash(modelCommand(skillCommand(name, w.pluginRoot), args));
    const reason = run('checkpoint', `--reason ${HOSTILE}`);
    expect(reason.code, reason.stderr).toBe(0);
    expect(reason.stdout).toContain('Handoff written');
    expect(run('shard', 'PLAN.md --dry-run').stdout).toContain('Dry run: would write');
    expect(run('estimate', HOSTILE).stdout).toMatch(/^Estimate: /);
    expect(w.markers()).toEqual([]);
  });
});

// ── Issue 24: the off switch (and status, doctor) from inside each agent ──

describe('the off switch from inside each agent: /checkpoint-off, /agent-checkpoint:checkpoint-off, the checkpoint-off skill', () => {
  /** The switch lines of `status` in the project. */
  const status = (w: World) => w.bash(`node ${quote([HOOK_BUNDLE])} status`).stdout;
  const HOSTILE_ID = 'id;touch MARK5 $(touch MARK6)';

  it('Gemini: /checkpoint-off --project, /checkpoint-on --project, --session with a hostile id; /checkpoint-status and /checkpoint-doctor run', () => {
    const w = world();
    const off = w.bash(geminiCommand('checkpoint-off', '--project'));
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toMatch(/^Checkpoints off for project /);
    expect(status(w)).toMatch(/^project .*: off/m);
    expect(w.bash(geminiCommand('checkpoint-status', '')).stdout).toMatch(/^project .*: off/m);
    expect(w.bash(geminiCommand('checkpoint-on', '--project')).code).toBe(0);
    expect(status(w)).toMatch(/^project .*: on$/m);
    const session = w.bash(geminiCommand('checkpoint-off', `--session "${HOSTILE_ID}"`));
    expect(session.code, session.stderr).toBe(0);
    expect(session.stdout).toContain('Checkpoints off for session id;touch MARK5');
    expect(w.markers()).toEqual([]);
    // No session transcript here: the default (--current) says so, and what to pass instead.
    const current = w.bash(geminiCommand('checkpoint-off', ''));
    expect(current.code).toBe(1);
    expect(current.stderr).toContain('no session of any agent found');
    expect(w.bash(geminiCommand('checkpoint-doctor', '')).stdout).toMatch(/state directory|configuration/);
  });

  it('Claude: the documented form of /agent-checkpoint:checkpoint-off and -on, with --all; the status and doctor blocks run', () => {
    const w = world();
    const run = (name: string, args: string) => w.claudeBash(modelCommand(claudeDocumented(claudeBody(name, args, w.pluginRoot)), args));
    const off = run('checkpoint-off', '--all');
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toContain('Checkpoints off for all sessions');
    const [statusBlock, ...more] = claudeShellBlocks(claudeBody('checkpoint-status', '', w.pluginRoot));
    expect(more).toEqual([]);
    expect(w.claudeBash(statusBlock!).stdout).toMatch(/^all sessions: off/m);
    expect(run('checkpoint-on', '--all').code).toBe(0);
    expect(status(w)).toMatch(/^all sessions: on$/m);
    expect(run('checkpoint-off', `--session "${HOSTILE_ID}"`).code).toBe(0);
    expect(w.markers()).toEqual([]);
    const [doctorBlock] = claudeShellBlocks(claudeBody('checkpoint-doctor', '', w.pluginRoot));
    expect(w.claudeBash(doctorBlock!).stdout).toMatch(/state directory|configuration/);
  });

  it('Codex: the checkpoint-off and checkpoint-on skills name a command that switches', () => {
    const w = world();
    const skill = (name: string): string => {
      const text = readFileSync(join(repoRoot, 'plugins', 'agent-checkpoint', 'skills', name, 'SKILL.md'), 'utf8');
      return /^Run `(node "<plugin root>\/dist\/agent-checkpoint-hook\.cjs" [^`]*)`/m.exec(text)![1]!.replace('<plugin root>', w.pluginRoot);
    };
    expect(w.bash(modelCommand(skill('checkpoint-off'), '--project')).code).toBe(0);
    expect(w.bash(skill('checkpoint-status')).stdout).toMatch(/^project .*: off/m);
    expect(w.bash(modelCommand(skill('checkpoint-on'), '--project')).code).toBe(0);
    expect(status(w)).toMatch(/^project .*: on$/m);
  });
});
