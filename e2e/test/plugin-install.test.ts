import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentId } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_PREFIX, RESTART_COMMAND } from '../src/checkpoint/checkpoint-project.ts';
import type { CheckpointRoute } from '../src/checkpoint/checkpoint-routes.ts';
import { DAEMON_NOT_RESTARTED } from '../src/checkpoint/checkpoint-scenarios.ts';
import { say, shell, tools } from '../src/mock/scenario.ts';
import { findDeliveredCheckpoint } from '../src/checkpoint/delivered-checkpoint.ts';
import { agentCli } from '../src/harness/agent-clis.ts';
import { copyCheckout, REPO_ROOT } from '../src/harness/clone-checkout.ts';
import type { AgentSession, SessionOptions } from '../src/harness/agent-session.ts';
import { SKIP_REAL_CLIS, withCheckedSession } from '../src/harness/define-headless-agent-tests.ts';
import { runInGroup, type ProcessResult } from '../src/harness/process-group.ts';
import { ownInstallSession } from '../src/harness/own-install.ts';
import { runCli, trustHooksInCodexTui } from '../src/harness/plugin-route-install.ts';
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
 * its own is listed per agent, exactly), and our `uninstall --purge` removes the rest (issue 24).
 * Issue 24's "done means" run in the same session: `doctor` shows the install, a second install is
 * refused, and (Gemini, Codex; Claude in its own test below) a turn with no `node` on the hooks' PATH
 * gives one notice and no hook error, and the off switch works from inside the agent.
 *
 * The checkout is what `git clone` gives a user: the repository's tracked and untracked-but-not-
 * ignored files, copied into the session's temp workspace (no node_modules, no build outputs other
 * than the committed plugin bundle), so the plugin is proven to work without any build on the user's
 * machine.
 */

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
   * What the install command takes, made from the clone at `checkout` (default: the clone itself):
   * Gemini's staged extension (`pnpm gemini-extension <dir>`), beside the clone.
   */
  readonly stage?: (checkout: string) => string;
  /** The plugin's command-line tool where the agent installed it (`doctor`, a second `install`). */
  readonly installedBin: (home: string, checkout: string) => string;
  /**
   * Issue 24: a turn with no `node` on the PATH the agent starts with (`env`): one notice, no hook
   * error, no checkpoint.
   */
  readonly withoutNode?: (session: HeadlessSession, env: Record<string, string>) => Promise<void>;
  /**
   * Issue 24: the off switch from inside the agent (its command or skill), then a fresh turn with the
   * same work, which must pass unchecked.
   */
  readonly switchOff?: (session: HeadlessSession) => Promise<void>;
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
  /**
   * Of {@link keptByCli}, what is still there after our `uninstall --purge` too: files the CLI owns
   * and cleans up itself, which name no path of ours that runs anything.
   */
  readonly keptAfterPurge: readonly RegExp[];
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
    keptAfterPurge: [/^\.claude\/plugins\/cache\/agent-checkpoint\/agent-checkpoint\/0\.1\.0\//],
    // Claude Code runs a plugin of a local-directory marketplace from the clone itself.
    installedBin: (_home, checkout) => path.join(checkout, 'plugins', PLUGIN, 'bin', 'agent-checkpoint-hook'),
  },
  {
    agent: 'gemini',
    route: 'gemini-hook',
    start: (o) => GeminiSession.start(o),
    // --consent: the confirmation Gemini asks for interactively.
    install: (source) => [['extensions', 'install', source, '--consent']],
    // What the docs tell a user with a development clone: stage the extension's files, install those.
    stage: (checkout) => {
      const staged = path.join(path.dirname(checkout), 'agent-checkpoint-extension');
      execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'stage-gemini-extension.mjs'), staged], { cwd: REPO_ROOT, stdio: 'pipe' });
      return staged;
    },
    installedBin: (home) => path.join(home, '.gemini', 'extensions', PLUGIN, 'plugins', PLUGIN, 'bin', 'agent-checkpoint-hook'),
    withoutNode: geminiWithoutNode,
    switchOff: geminiSwitchOff,
    uninstall: [['extensions', 'uninstall', PLUGIN]],
    configRoots: ['.gemini'],
    history: [/^\.gemini\/tmp\//, /^\.gemini\/history\//],
    // Gemini CLI 0.61.0 keeps the installed extension's integrity record (hash + signature) after
    // uninstall; it names no path and runs nothing.
    keptByCli: [{ file: /^\.gemini\/extension_integrity\.json$/ }],
    keptAfterPurge: [/^\.gemini\/extension_integrity\.json$/],
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
    installedBin: (home) => codexInstalledBin(home),
    withoutNode: codexWithoutNode,
    switchOff: codexSwitchOff,
    // Plain `codex exec`: no --dangerously-bypass-hook-trust (the runner's prompt passes it); the
    // trust recorded in the TUI is what lets the plugin's hooks run.
    prompt: (session, text) => runCli(session, ['exec', '--json', text]),
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
    // Our purge removes those trust tables.
    keptAfterPurge: [],
  },
];

/** The debug log of our bin in a session: one `{agent, message}` per hook run. */
function debugLog(session: AgentSession): { agent: string; message: string }[] {
  const file = path.join(session.workspace.root, 'state', 'debug.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { agent: string; message: string });
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
  const source = c.stage?.(checkout) ?? checkout;
  // As typed next to the clone: `<cli> … ./agent-checkpoint`.
  for (const args of c.install(`./${path.basename(source)}`)) await runCli(session, args, path.dirname(source));
  expect(filesMentioningUs(session.workspace.home, c, checkout).length, 'install recorded the plugin').toBeGreaterThan(0);
  return checkout;
}

/** Runs the plugin's command-line tool `bin` (a POSIX sh script) with `args`, in the session's project and environment. */
function runTool(session: AgentSession, bin: string, args: readonly string[], env: Record<string, string> = session.env()): Promise<ProcessResult> {
  return runInGroup(['sh', bin, ...args], { cwd: session.workspace.repo, env, timeoutMs: CLI_TIMEOUT_MS });
}

/** The plugin's bin in Codex's plugin cache (`~/.codex/plugins/cache/<marketplace>/<plugin>/<version>/bin/…`). */
function codexInstalledBin(home: string): string {
  const found = readdirSync(path.join(home, '.codex', 'plugins'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(path.join(PLUGIN, 'bin', 'agent-checkpoint-hook')) || f.endsWith(path.join('bin', 'agent-checkpoint-hook')));
  expect(found.length, `the plugin's bin under ~/.codex/plugins: ${found.join(', ')}`).toBe(1);
  return path.join(home, '.codex', 'plugins', found[0]!);
}

/** A directory of links to every program of the system directories but node: a PATH with git and sh, without node. */
function pathWithoutNode(session: AgentSession): string {
  const bin = path.join(session.workspace.root, 'no-node-bin');
  if (existsSync(bin)) return bin;
  mkdirSync(bin);
  for (const dir of ['/usr/local/bin', '/usr/bin', '/bin']) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (name === 'node' || name === 'nodejs' || existsSync(path.join(bin, name))) continue;
      symlinkSync(path.join(dir, name), path.join(bin, name));
    }
  }
  return bin;
}

/** Puts the project back as committed: the next turn makes the same edits again. */
function resetProject(session: AgentSession): void {
  execFileSync('git', ['reset', '-q', '--hard'], { cwd: session.workspace.repo, env: session.env(), stdio: 'pipe' });
  execFileSync('git', ['clean', '-q', '-fd'], { cwd: session.workspace.repo, env: session.env(), stdio: 'pipe' });
}

/** A fresh `gemini -p` conversation (no session id): the scripted steps start over. */
async function geminiFreshTurn(session: HeadlessSession, text: string, env: Record<string, string> = session.env()): Promise<ProcessResult> {
  const { beforePrompt, afterPrompt } = (session as GeminiSession).headlessArgv();
  const run = await runInGroup([...beforePrompt, text, ...afterPrompt], { cwd: session.workspace.repo, env, timeoutMs: CLI_TIMEOUT_MS });
  expect(run.timedOut, run.stderr).toBe(false);
  expect(run.exitCode, `${text}:\n${run.stderr.slice(-3000)}`).toBe(0);
  return run;
}

/**
 * Gemini CLI runs on its own Node (the runner starts it by absolute path), and its hooks with
 * `bash -c` and the PATH it was given: without `node` there, the extension's hooks start the sh
 * launcher, which exits 0 at every event and says so once, at session start — shown by Gemini as a
 * "Hook system message" — with no hook failure reported and no checkpoint.
 */
async function geminiWithoutNode(session: HeadlessSession, env: Record<string, string>): Promise<void> {
  const from = session.requests.length;
  const run = await geminiFreshTurn(session, DAEMON_NOT_RESTARTED.prompt, env);
  // Gemini CLI 0.61 headless writes a hook's systemMessage to stderr twice: as is, and as "Hook system
  // message: …". One hook run said it: one "Hook system message" line, nothing else mentions it.
  const lines = `${run.stdout}\n${run.stderr}`.split('\n').filter((l) => l.includes('no Node.js found on PATH'));
  expect(lines.filter((l) => l.startsWith('Hook system message: agent-checkpoint: no Node.js found on PATH')).length, `the notice, once:\n${run.stderr.slice(-3000)}`).toBe(1);
  expect(lines.every((l) => /^(?:Hook system message: )?agent-checkpoint: no Node\.js found on PATH/.test(l)), lines.join('\n')).toBe(true);
  expect(lines.length).toBe(2);
  expect(run.stderr, 'no hook failure').not.toMatch(/Hook\(s\).*failed|Hook execution (?:error|failed)/i);
  const turn = session.requests.slice(from);
  expect(turn.filter((r) => r.answer === 'step').length, 'the whole turn ran').toBeGreaterThanOrEqual(5);
  expect(turn.flatMap((r) => (r.answer === 'step' && findDeliveredCheckpoint('gemini-hook', r.body) !== undefined ? [r.n] : []))).toEqual([]);
  expect(debugLog(session), 'no run of our bin').toEqual([]);
  resetProject(session);
}

/**
 * The Gemini command `/checkpoint-off --project` (commands/checkpoint-off.toml, its `!{…}` run by
 * Gemini), then the same daemon edit in a fresh conversation: its end passes unchecked.
 */
async function geminiSwitchOff(session: HeadlessSession): Promise<void> {
  session.mock.setScenario({ name: 'switched-off', steps: [say('Checkpoints are off for this project.')] });
  const from = session.requests.length;
  await geminiFreshTurn(session, '/checkpoint-off --project');
  const sent = session.requests.slice(from).find((r) => r.answer === 'step');
  expect(JSON.stringify(sent?.body ?? ''), 'the command’s output in the prompt').toContain('Checkpoints off for project');
  session.mock.setScenario(DAEMON_NOT_RESTARTED.script);
  resetProject(session);
  const before = session.requests.length;
  await geminiFreshTurn(session, DAEMON_NOT_RESTARTED.prompt);
  const turn = session.requests.slice(before);
  expect(turn.filter((r) => r.answer === 'step').length).toBeGreaterThanOrEqual(5);
  expect(turn.flatMap((r) => (r.answer === 'step' && findDeliveredCheckpoint('gemini-hook', r.body) !== undefined ? [r.n] : []))).toEqual([]);
  // The turn end (the last hook of the turn) found the project switched off.
  expect(debugLog(session).at(-1)?.message).toMatch(/^switched-off: checkpoints are off \(project: /);
}

/**
 * Codex CLI runs its hooks with `$SHELL -lc`: a login shell, whose /etc/profile puts the system
 * directories (and this machine's /usr/bin/node) back on the PATH. A user without Node has none
 * there; here the user's own login profile sets the PATH without node, for this turn only.
 * `codex exec` shows a hook's output nowhere (neither its stdout nor the rollout), so the `sh` on that
 * PATH is a spy that runs the real one and records, for each start of our launcher, its arguments,
 * exit code and stdout.
 */
async function codexWithoutNode(session: HeadlessSession, env: Record<string, string>): Promise<void> {
  const spyDir = path.join(session.workspace.root, 'sh-spy');
  const spyLog = path.join(session.workspace.root, 'sh-spy.log');
  mkdirSync(spyDir, { recursive: true });
  writeFileSync(
    path.join(spyDir, 'sh'),
    [
      '#!/bin/dash',
      'case "$1" in',
      '  */hooks/run-hook.sh)',
      '    out=$(/bin/dash "$@"); code=$?',
      '    [ -n "$out" ] && printf \'%s\\n\' "$out"',
      `    printf '%s\\t%s\\t%s\\n' "$code" "$*" "$out" >> '${spyLog}'`,
      '    exit $code ;;',
      'esac',
      'exec /bin/dash "$@"',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  const profile = path.join(session.workspace.home, '.bash_profile');
  writeFileSync(profile, `PATH='${spyDir}:${env['PATH']}'; export PATH\n`);
  try {
    const from = session.requests.length;
    const run = await runInGroup([...session.cli.argv, 'exec', '--json', DAEMON_NOT_RESTARTED.prompt], { cwd: session.workspace.repo, env: { ...env, PATH: `${spyDir}:${env['PATH']}` }, timeoutMs: CLI_TIMEOUT_MS });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr.slice(-3000)).toBe(0);
    const turn = session.requests.slice(from);
    expect(turn.filter((r) => r.answer === 'step').length, 'the whole turn ran').toBeGreaterThanOrEqual(5);
    expect(turn.flatMap((r) => (r.answer === 'step' && findDeliveredCheckpoint('codex-hook', r.body) !== undefined ? [r.n] : []))).toEqual([]);
    expect(run.stderr, 'no hook failure').not.toMatch(/hook[^\n]*(?:failed|error)/i);
    expect(debugLog(session), 'no run of our bin').toEqual([]);
    const starts = readFileSync(spyLog, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const [code, args, stdout] = line.split('\t');
        return { code, mode: (args ?? '').split(' ').slice(1).join(' '), stdout: stdout ?? '' };
      });
    // Every hook of the turn ran the launcher and exited 0; only the session start said something.
    expect(new Set(starts.map((s) => s.mode))).toEqual(new Set(['session-start codex', 'prompt-submit codex', 'post-tool codex', 'codex']));
    expect(starts.filter((s) => s.code !== '0')).toEqual([]);
    const said = starts.filter((s) => s.stdout !== '');
    expect(said.map((s) => s.mode)).toEqual(['session-start codex']);
    expect(JSON.parse(said[0]!.stdout)).toEqual({ systemMessage: expect.stringMatching(/^agent-checkpoint: no Node\.js found on PATH/) });
  } finally {
    rmSync(profile, { force: true });
  }
  resetProject(session);
}

/**
 * The skill `agent-checkpoint:checkpoint-off` (plugins/agent-checkpoint/skills/checkpoint-off), named
 * in a `codex exec` prompt as a user does (`$agent-checkpoint:checkpoint-off --project`): Codex puts
 * the skill's instructions into the request, and the model runs the command it names, from the
 * installed plugin. Then the same daemon edit in a fresh `codex exec`: its end passes unchecked.
 */
async function codexSwitchOff(session: HeadlessSession): Promise<void> {
  const root = path.dirname(path.dirname(codexInstalledBin(session.workspace.home)));
  const command = `node '${path.join(root, 'dist', 'agent-checkpoint-hook.cjs')}' slash off '--project'`;
  session.mock.setScenario({ name: 'switched-off', steps: [tools(shell(command)), say('Checkpoints are off for this project.')] });
  const from = session.requests.length;
  await runCli(session, ['exec', '--json', '$agent-checkpoint:checkpoint-off --project']);
  const sent = JSON.stringify(session.requests.slice(from).find((r) => r.answer === 'step')?.body ?? '');
  expect(sent, 'the skill’s instructions in the request').toContain('slash off');
  const last = JSON.stringify(session.requests.slice(from).filter((r) => r.answer === 'step').at(-1)?.body ?? '');
  expect(last, 'the command’s output').toContain('Checkpoints off for project');
  session.mock.setScenario(DAEMON_NOT_RESTARTED.script);
  resetProject(session);
  const before = session.requests.length;
  await runCli(session, ['exec', '--json', DAEMON_NOT_RESTARTED.prompt]);
  const turn = session.requests.slice(before);
  expect(turn.filter((r) => r.answer === 'step').length).toBeGreaterThanOrEqual(5);
  expect(turn.flatMap((r) => (r.answer === 'step' && findDeliveredCheckpoint('codex-hook', r.body) !== undefined ? [r.n] : []))).toEqual([]);
  expect(debugLog(session).at(-1)?.message).toMatch(/^switched-off: checkpoints are off \(project: /);
}

/**
 * Every file under HOME, HOME-relative, outside the agent's session history: what the session left,
 * compared with the listing taken before the install.
 */
function homeFiles(home: string, c: PluginCase): string[] {
  const out: string[] = [];
  const visit = (relative: string): void => {
    const absolute = path.join(home, relative);
    if (relative !== '' && c.history.some((h) => h.test(relative))) return;
    const stat = lstatSync(absolute);
    if (stat.isDirectory()) {
      for (const name of readdirSync(absolute)) visit(path.join(relative, name));
      return;
    }
    out.push(relative);
  };
  visit('');
  return out.sort();
}

/** Of `files` (HOME-relative), those that are ours: named for us, or naming the plugin or the checkout. */
function oursAmong(home: string, files: readonly string[], checkout: string): string[] {
  return files.filter((file) => {
    if (file.includes(PLUGIN)) return true;
    const stat = lstatSync(path.join(home, file));
    if (!stat.isFile()) return false;
    const text = readFileSync(path.join(home, file)).toString('latin1');
    return text.includes(PLUGIN) || text.includes(checkout);
  });
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
    it('install from a checkout → doctor shows it, a second install is refused → (no node: one notice) → the turn is checkpointed by the plugin’s hook → (off from inside the agent: unchecked) → uninstall + purge leave nothing of ours', async () => {
      await withCheckedSession(c.start(ownInstallSession(DAEMON_NOT_RESTARTED.script, { debug: true })), async (session) => {
        const home = session.workspace.home;
        const before = homeFiles(home, c);
        const checkout = await installFromCheckout(session, c);

        await c.trust?.(session);

        // Issue 24: one view of the installation. The plugin's own tool, where the agent installed it.
        const bin = c.installedBin(home, checkout);
        const doctor = await runTool(session, bin, ['doctor']);
        expect(`${doctor.stdout}${doctor.stderr}`, 'doctor lists the plugin install').toMatch(/(?:plugin|extension) agent-checkpoint\S* \(enabled\): runs /);
        expect(`${doctor.stdout}${doctor.stderr}`).not.toMatch(/no Stop hook registered|no AfterAgent hook registered/);
        const second = await runTool(session, bin, ['install', '--agent', c.agent]);
        expect(second.exitCode, 'a second install beside the plugin').not.toBe(0);
        expect(second.stderr).toMatch(/not installing: the (?:plugin|extension) agent-checkpoint\S* is installed and enabled/);
        expect(debugLog(session), 'no hook ran yet').toEqual([]);

        if (c.withoutNode !== undefined) await c.withoutNode(session, { ...session.env(), PATH: pathWithoutNode(session) });

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

        if (c.switchOff !== undefined) await c.switchOff(session);

        for (const args of c.uninstall) await runCli(session, args);
        const left = filesMentioningUs(session.workspace.home, c, checkout).filter((file) => !keptByCli(session.workspace.home, c, file, checkout));
        expect(left, 'files of the agent configuration that still mention the plugin after uninstall').toEqual([]);

        // Our purge, from the clone (the plugin's own copy may be gone with it): state, caches, install
        // records, Codex trust tables. Then nothing of ours is left under HOME but what the CLI keeps.
        const purge = await runTool(session, path.join(checkout, 'plugins', PLUGIN, 'bin', 'agent-checkpoint-hook'), ['uninstall', '--agent', c.agent, '--purge']);
        expect(purge.exitCode, `uninstall --purge:\n${purge.stdout}\n${purge.stderr}`).toBe(0);
        const after = homeFiles(home, c);
        const added = after.filter((f) => !before.includes(f));
        const ours = oursAmong(home, added, checkout).filter((f) => !c.keptAfterPurge.some((k) => k.test(f)));
        expect(ours, `files of ours under HOME after uninstall + purge (of ${added.length} files added since before the install)`).toEqual([]);
        expect(oursAmong(home, after.filter((f) => before.includes(f)), checkout), 'files that were there before and now mention us').toEqual([]);
        const state = path.join(session.workspace.root, 'state');
        expect(existsSync(state) ? readdirSync(state) : [], 'our state directory').toEqual([]);
      });
    });
  });

  // Why the trust step above is needed: Codex treats a plugin's hooks like any other hook and,
  // untrusted, `codex exec` skips them silently.
  it('codex: the plugin’s hooks need the trust step — untrusted, `codex exec` skips them and no checkpoint arrives', async () => {
    const codex = CASES.find((c) => c.agent === 'codex')!;
    await withCheckedSession(CodexSession.start(ownInstallSession(DAEMON_NOT_RESTARTED.script, { debug: true })), async (session) => {
      await installFromCheckout(session, codex);
      await runCli(session, ['exec', '--json', DAEMON_NOT_RESTARTED.prompt]);
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
    await withCheckedSession(ClaudeSession.start(ownInstallSession(DAEMON_NOT_RESTARTED.script, { debug: true })), async (session) => {
      await installFromCheckout(session, claude);
      const env = { ...session.env(), PATH: pathWithoutNode(session) };
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
    await withCheckedSession(ClaudeSession.start(ownInstallSession(DAEMON_NOT_RESTARTED.script, { debug: true })), async (session) => {
      const checkout = path.join(session.workspace.root, 'checkout', 'agent-checkpoint');
      copyCheckout(checkout);
      const marketplace = await runCli(session, ['plugin', 'validate', checkout]);
      expect(marketplace.stdout).toContain('Validation passed');
      const plugin = await runCli(session, ['plugin', 'validate', '--strict', path.join(checkout, 'plugins', PLUGIN)]);
      expect(plugin.stdout).toContain('Validation passed');
      for (const event of ['Stop', 'SessionStart', 'PreCompact', 'PostToolUse', 'UserPromptSubmit']) expect(plugin.stdout).toContain(`hooks: ${event} command`);
      const gemini = await runInGroup([...agentCli('gemini').argv, 'extensions', 'validate', checkout], { cwd: session.workspace.repo, env: session.env(), timeoutMs: CLI_TIMEOUT_MS });
      expect(gemini.exitCode, gemini.stderr).toBe(0);
      expect(`${gemini.stdout}${gemini.stderr}`).toContain('has been successfully validated');
    });
  });
});
