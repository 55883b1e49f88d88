import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import type { AgentId } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_PREFIX, projectFiles, RESTART_COMMAND } from '../src/checkpoint/checkpoint-project.ts';
import type { CheckpointRoute } from '../src/checkpoint/checkpoint-routes.ts';
import { DAEMON_NOT_RESTARTED } from '../src/checkpoint/checkpoint-scenarios.ts';
import { findDeliveredCheckpoint } from '../src/checkpoint/delivered-checkpoint.ts';
import { agentCli, E2E_PACKAGE_DIR } from '../src/harness/agent-clis.ts';
import type { AgentSession, SessionOptions } from '../src/harness/agent-session.ts';
import { SKIP_REAL_CLIS, withCheckedSession } from '../src/harness/define-headless-agent-tests.ts';
import { runInGroup, type ProcessResult } from '../src/harness/process-group.ts';
import { trustHooksInCodexTui } from '../src/harness/plugin-route-install.ts';
import { ClaudeSession } from '../src/run-claude.ts';
import { CodexSession } from '../src/run-codex.ts';
import { GeminiSession } from '../src/run-gemini.ts';

/**
 * The repository as a plugin marketplace / extension, installed by each real CLI's own plugin
 * commands (issue 15): a session starts with **no** hook; the CLI adds the marketplace (Claude Code,
 * Codex CLI) or the extension (Gemini CLI) from a checkout of this repository and installs the
 * plugin; one turn edits daemon code and never runs `make restart`; the plugin's hook — the committed
 * bundle under `plugins/agent-checkpoint/dist/`, started through the plugin-root variable the CLI
 * provides — blocks the stop, and the next model request carries our checkpoint. The CLI's own
 * uninstall commands then leave nothing of ours in the agent's configuration (what each CLI keeps on
 * its own is listed per agent, exactly).
 *
 * The checkout is what `git clone` gives a user: the repository's tracked and untracked-but-not-
 * ignored files, copied into the session's temp workspace (no node_modules, no build outputs other
 * than the committed plugin bundle), so the plugin is proven to work without any build on the user's
 * machine.
 */

const REPO_ROOT = path.dirname(E2E_PACKAGE_DIR);

const PLUGIN = 'agent-checkpoint';
const MARKETPLACE = 'agent-checkpoint';
const CLI_TIMEOUT_MS = 90_000;

type HeadlessSession = AgentSession & { prompt(text: string): Promise<ProcessResult> };

interface PluginCase {
  readonly agent: AgentId;
  readonly route: CheckpointRoute;
  start(options: SessionOptions): Promise<HeadlessSession>;
  /**
   * The CLI's plugin commands that install from `source`, a path relative to the directory they run
   * in (the clone's parent), as a user types them after `git clone` (each must exit 0).
   */
  readonly install: (source: string) => readonly (readonly string[])[];
  /**
   * What a user does between install and the first turn, if anything (Codex: trust the plugin's
   * hooks in the TUI).
   */
  readonly trust?: (session: HeadlessSession) => Promise<void>;
  /** The turn, as a user runs it once installed (default: the runner's headless prompt). */
  readonly prompt?: (session: HeadlessSession, text: string) => Promise<ProcessResult>;
  /** The CLI's commands that remove the plugin and the marketplace again. */
  readonly uninstall: readonly (readonly string[])[];
  /** The agent's configuration, relative to HOME: every file under these is scanned after uninstall. */
  readonly configRoots: readonly string[];
  /**
   * Session history under the config roots (transcripts, logs, databases): it records the turn, and
   * so our delivered checkpoint, by design. Not configuration; not scanned.
   */
  readonly history: readonly RegExp[];
  /**
   * What the CLI itself keeps after its own uninstall, matched exactly: a file (HOME-relative path)
   * that may still mention us, either wholly or only in the parts matched by `parts` (the file must
   * not mention us once they are cut out). Anything else is a failure.
   */
  readonly keptByCli: readonly { readonly file: RegExp; readonly parts?: RegExp }[];
}

const CASES: readonly PluginCase[] = [
  {
    agent: 'claude',
    route: 'claude-hook',
    start: (o) => ClaudeSession.start(o),
    install: (source) => [
      ['plugin', 'marketplace', 'add', source],
      ['plugin', 'install', `${PLUGIN}@${MARKETPLACE}`],
    ],
    uninstall: [
      ['plugin', 'uninstall', `${PLUGIN}@${MARKETPLACE}`],
      ['plugin', 'marketplace', 'remove', MARKETPLACE],
    ],
    configRoots: ['.claude', '.claude.json'],
    history: [/^\.claude\/projects\//, /^\.claude\/(?:todos|shell-snapshots|session-env|file-history|statsig|backups|debug|telemetry)\//, /^\.claude\/history\.jsonl$/],
    // Claude Code 2.1.330 keeps the uninstalled version's cache copy, marked with `.orphaned_at`,
    // and deletes it itself later (its deferred plugin-cache cleanup).
    keptByCli: [{ file: /^\.claude\/plugins\/cache\/agent-checkpoint\/agent-checkpoint\/0\.1\.0\// }],
  },
  {
    agent: 'gemini',
    route: 'gemini-hook',
    start: (o) => GeminiSession.start(o),
    // --consent: the confirmation Gemini asks for interactively.
    install: (source) => [['extensions', 'install', source, '--consent']],
    uninstall: [['extensions', 'uninstall', PLUGIN]],
    configRoots: ['.gemini'],
    history: [/^\.gemini\/tmp\//, /^\.gemini\/history\//],
    // Gemini CLI 0.61.0 keeps the installed extension's integrity record (hash + signature) after
    // uninstall; it names no path and runs nothing.
    keptByCli: [{ file: /^\.gemini\/extension_integrity\.json$/ }],
  },
  {
    agent: 'codex',
    route: 'codex-hook',
    start: (o) => CodexSession.start(o),
    install: (source) => [
      ['plugin', 'marketplace', 'add', source],
      ['plugin', 'add', `${PLUGIN}@${MARKETPLACE}`],
    ],
    trust: trustHooksInCodexTui,
    // Plain `codex exec`: no --dangerously-bypass-hook-trust (the runner's prompt passes it); the
    // trust recorded in the TUI is what lets the plugin's hooks run.
    prompt: (session, text) => cli(session, ['exec', '--json', text]),
    uninstall: [
      ['plugin', 'remove', `${PLUGIN}@${MARKETPLACE}`],
      ['plugin', 'marketplace', 'remove', MARKETPLACE],
    ],
    configRoots: ['.codex'],
    history: [/^\.codex\/sessions\//, /^\.codex\/log\//, /^\.codex\/[^/]*\.sqlite(?:-wal|-shm)?$/, /^\.codex\/history\.jsonl$/],
    // Codex CLI 0.169.0's `plugin remove` keeps the trust records of the plugin's hooks in
    // config.toml (one table per hook: the hashes the user trusted; they run nothing).
    keptByCli: [
      {
        file: /^\.codex\/config\.toml$/,
        parts: /^\[hooks\.state\."agent-checkpoint@agent-checkpoint:hooks\/codex-hooks\.json:[a-z_]+:\d+:\d+"\]\n(?:trusted_(?:content_)?hash = "sha256:[0-9a-f]{64}"\n)+/gm,
      },
    ],
  },
];

function sessionOptions(): SessionOptions {
  return {
    scenario: DAEMON_NOT_RESTARTED.script,
    files: projectFiles(),
    // No hook of the harness: the only hook is the plugin's.
    hook: { kind: 'none' },
    env: (workspace) => ({
      AGENT_CHECKPOINT_STATE_DIR: path.join(workspace.root, 'state'),
      XDG_CONFIG_HOME: path.join(workspace.home, '.config'),
      XDG_CACHE_HOME: path.join(workspace.home, '.cache'),
      // Every run of our bin logs one line to <state dir>/debug.log: which hooks ran, for which agent.
      AGENT_CHECKPOINT_DEBUG: '1',
    }),
  };
}

/** The debug log of our bin in a session: one `{agent, message}` per hook run. */
function debugLog(session: AgentSession): { agent: string; message: string }[] {
  const file = path.join(session.workspace.root, 'state', 'debug.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { agent: string; message: string });
}

/** A clone-like copy of this repository: tracked and untracked-but-not-ignored files. */
function copyCheckout(dest: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter((f) => f !== '' && existsSync(path.join(REPO_ROOT, f)));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dest, file)), { recursive: true });
    cpSync(path.join(REPO_ROOT, file), path.join(dest, file), { verbatimSymlinks: true });
  }
}

/** Runs the session's CLI with `args` in the session's environment (deadline, process group). */
async function cli(session: AgentSession, args: readonly string[], cwd = session.workspace.repo): Promise<ProcessResult> {
  const result = await runInGroup([...session.cli.argv, ...args], { cwd, env: session.env(), timeoutMs: CLI_TIMEOUT_MS });
  expect(result.timedOut, `${args.join(' ')} timed out:\n${result.stderr}`).toBe(false);
  expect(result.exitCode, `${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result;
}

/** The checkpoints the session's model requests carried, with the agent's own wrapping removed. */
function deliveredCheckpoints(session: AgentSession, route: CheckpointRoute): string[] {
  return session.requests.flatMap((r) => {
    const found = r.answer === 'step' ? findDeliveredCheckpoint(route, r.body) : undefined;
    return found === undefined ? [] : [found.text];
  });
}

/** Installs the plugin with the case's commands, run next to a fresh clone-like checkout; returns the checkout. */
async function installFromCheckout(session: AgentSession, c: PluginCase): Promise<string> {
  const checkout = path.join(session.workspace.root, 'checkout', 'agent-checkpoint');
  copyCheckout(checkout);
  expect(existsSync(path.join(checkout, 'plugins', PLUGIN, 'dist', 'agent-checkpoint-hook.cjs')), 'the committed hook bundle').toBe(true);
  expect(filesMentioningUs(session.workspace.home, c, checkout), 'before install').toEqual([]);
  // As typed next to the clone: `<cli> … ./agent-checkpoint`.
  for (const args of c.install(`./${path.basename(checkout)}`)) await cli(session, args, path.dirname(checkout));
  expect(filesMentioningUs(session.workspace.home, c, checkout).length, 'install recorded the plugin').toBeGreaterThan(0);
  return checkout;
}

/** HOME-relative paths of the configuration files under `roots` that mention the plugin or the checkout. */
function filesMentioningUs(home: string, c: PluginCase, checkout: string): string[] {
  const found: string[] = [];
  const visit = (relative: string): void => {
    const absolute = path.join(home, relative);
    if (!existsSync(absolute) || c.history.some((h) => h.test(relative))) return;
    const stat = lstatSync(absolute);
    if (stat.isDirectory()) {
      for (const name of readdirSync(absolute)) visit(path.join(relative, name));
      return;
    }
    if (!stat.isFile()) return;
    const text = readFileSync(absolute).toString('latin1');
    if (relative.includes(PLUGIN) || text.includes(PLUGIN) || text.includes(checkout)) found.push(relative);
  };
  for (const root of c.configRoots) visit(root);
  return found.sort();
}

/** Whether `file` mentions us only in what the CLI keeps on its own ({@link PluginCase.keptByCli}). */
function keptByCli(home: string, c: PluginCase, file: string, checkout: string): boolean {
  const kept = c.keptByCli.find((k) => k.file.test(file));
  if (kept === undefined) return false;
  if (kept.parts === undefined) return true;
  const rest = readFileSync(path.join(home, file), 'utf8').replace(kept.parts, '');
  return !rest.includes(PLUGIN) && !rest.includes(checkout);
}

describe.skipIf(SKIP_REAL_CLIS)('the repository as a plugin marketplace / extension, installed by the real CLIs', () => {
  describe.each(CASES)('$agent', (c) => {
    it('install from a checkout → the turn is checkpointed by the plugin’s hook → uninstall leaves nothing of ours', async () => {
      await withCheckedSession(c.start(sessionOptions()), async (session) => {
        const checkout = await installFromCheckout(session, c);

        await c.trust?.(session);

        const prompt = c.prompt ?? ((s: HeadlessSession, text: string) => s.prompt(text));
        const run = await prompt(session, DAEMON_NOT_RESTARTED.prompt);
        expect(run.timedOut, run.stderr).toBe(false);
        expect(run.exitCode, run.stderr).toBe(0);
        // The plugin's hook blocked the stop: the next model request carries our checkpoint, and the
        // model answered it with the restart the checkpoint asked for.
        const deliveries = deliveredCheckpoints(session, c.route);
        expect(deliveries.length, `requests that carried a checkpoint; CLI stderr:\n${run.stderr.slice(-3000)}`).toBeGreaterThan(0);
        expect(deliveries[0]!.startsWith(CHECKPOINT_PREFIX)).toBe(true);
        expect(deliveries[0]).toContain(`Run \`${RESTART_COMMAND}\``);
        // The hook ran with the session's state dir: the escape-hatch line names its switches.
        expect(deliveries[0]).toContain(path.join(session.workspace.root, 'state', 'switches'));
        expect(session.requests.filter((r) => r.answer === 'fallback')).toEqual([]);
        expect(session.requests.some((r) => r.answer === 'step' && JSON.stringify(r.reply ?? '').includes(RESTART_COMMAND))).toBe(true);
        // The plugin's hooks ran with this agent's arguments: the session-start hook once (a no-op:
        // handoffs are off), the checkpoint, and never pre-compact (no compaction; Gemini's fires only
        // on a manual /compress, as its automatic trigger comes before every model request).
        const runs = debugLog(session);
        expect(new Set(runs.map((r) => r.agent))).toEqual(new Set([c.agent]));
        expect(runs.filter((r) => r.message.startsWith('session-start:')).map((r) => r.message)).toEqual(['session-start: handoffs-disabled: handoff.enabled is false']);
        expect(runs.filter((r) => r.message.startsWith('pre-compact:'))).toEqual([]);
        expect(runs.filter((r) => r.message.startsWith('checkpoint: actionable')).length).toBe(1);

        for (const args of c.uninstall) await cli(session, args);
        const left = filesMentioningUs(session.workspace.home, c, checkout).filter((file) => !keptByCli(session.workspace.home, c, file, checkout));
        expect(left, 'files of the agent configuration that still mention the plugin after uninstall').toEqual([]);
      });
    });
  });

  // Why the trust step above is needed: Codex treats a plugin's hooks like any other hook and,
  // untrusted, `codex exec` skips them silently.
  it('codex: the plugin’s hooks need the trust step — untrusted, `codex exec` skips them and no checkpoint arrives', async () => {
    const codex = CASES.find((c) => c.agent === 'codex')!;
    await withCheckedSession(CodexSession.start(sessionOptions()), async (session) => {
      await installFromCheckout(session, codex);
      await cli(session, ['exec', '--json', DAEMON_NOT_RESTARTED.prompt]);
      // The turn ran to its end (the model's answer after the daemon edit was requested) …
      expect(session.requests.filter((r) => r.answer === 'step').length).toBeGreaterThanOrEqual(5);
      // … and no stop was blocked.
      expect(deliveredCheckpoints(session, 'codex-hook')).toEqual([]);
    });
  });

  // Issue 24: Claude Code's native build needs no Node. Without `node` on PATH the plugin's hooks
  // start through the sh launcher, which exits 0 at every event and says so once, at session start,
  // in `systemMessage`: no hook error, no checkpoint.
  it('claude without node on PATH: one notice at session start, every hook exits 0, no checkpoint', async () => {
    const claude = CASES.find((c) => c.agent === 'claude')!;
    await withCheckedSession(ClaudeSession.start(sessionOptions()), async (session) => {
      await installFromCheckout(session, claude);
      // A PATH of every program of the system directories but node.
      const bin = path.join(session.workspace.root, 'no-node-bin');
      mkdirSync(bin);
      for (const dir of ['/usr/local/bin', '/usr/bin', '/bin']) {
        if (!existsSync(dir)) continue;
        for (const name of readdirSync(dir)) {
          if (name === 'node' || name === 'nodejs' || existsSync(path.join(bin, name))) continue;
          symlinkSync(path.join(dir, name), path.join(bin, name));
        }
      }
      const env = { ...session.env(), PATH: bin };
      const run = await runInGroup(
        [...session.cli.argv, '-p', DAEMON_NOT_RESTARTED.prompt, '--output-format', 'stream-json', '--verbose', '--include-hook-events', '--permission-mode', 'acceptEdits', '--allowedTools', 'Bash Edit Write Read'],
        { cwd: session.workspace.repo, env, timeoutMs: CLI_TIMEOUT_MS },
      );
      expect(run.timedOut, run.stderr).toBe(false);
      expect(run.exitCode, run.stderr).toBe(0);
      const events = run.stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const responses = events.filter((e) => e['subtype'] === 'hook_response');
      const byEvent = (name: string) => responses.filter((e) => e['hook_event'] === name);
      for (const event of ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop']) expect(byEvent(event).length, event).toBeGreaterThan(0);
      for (const r of responses) {
        expect(r['exit_code'], JSON.stringify(r)).toBe(0);
        expect(r['outcome'], JSON.stringify(r)).toBe('success');
      }
      const notices = responses.filter((r) => String(r['stdout'] ?? '').includes('systemMessage'));
      expect(notices.map((r) => r['hook_event'])).toEqual(['SessionStart']);
      expect(String(notices[0]?.['stdout'])).toMatch(/no Node\.js found on PATH/);
      expect(deliveredCheckpoints(session, claude.route)).toEqual([]);
      expect(debugLog(session)).toEqual([]);
    });
  });

  // The CLIs' own manifest validators, on the clone (Codex CLI 0.169 has none). Claude's strict mode
  // holds for the plugin; on the repository root it also reads the Gemini extension's
  // hooks/hooks.json as Claude hooks and warns about AfterAgent and PreCompress (unknown events to
  // Claude; that file is never loaded by Claude, whose plugin is plugins/agent-checkpoint).
  it('claude plugin validate (marketplace; --strict for the plugin) and gemini extensions validate accept the manifests', async () => {
    await withCheckedSession(ClaudeSession.start(sessionOptions()), async (session) => {
      const checkout = path.join(session.workspace.root, 'checkout', 'agent-checkpoint');
      copyCheckout(checkout);
      const marketplace = await cli(session, ['plugin', 'validate', checkout]);
      expect(marketplace.stdout).toContain('Validation passed');
      const plugin = await cli(session, ['plugin', 'validate', '--strict', path.join(checkout, 'plugins', PLUGIN)]);
      expect(plugin.stdout).toContain('Validation passed');
      for (const event of ['Stop', 'SessionStart', 'PreCompact', 'PostToolUse', 'UserPromptSubmit']) expect(plugin.stdout).toContain(`hooks: ${event} command`);
      const gemini = await runInGroup([...agentCli('gemini').argv, 'extensions', 'validate', checkout], { cwd: session.workspace.repo, env: session.env(), timeoutMs: CLI_TIMEOUT_MS });
      expect(gemini.exitCode, gemini.stderr).toBe(0);
      expect(`${gemini.stdout}${gemini.stderr}`).toContain('has been successfully validated');
    });
  });
});
