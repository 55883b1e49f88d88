import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A recorded Codex 0.169 TUI session (fixtures/codex/0.169.0/tmux): turn 1 runs a failing test
 * (exit 3), `ls`, and patches calc.py + adds NOTES.md; turn 2 is a `[checkpoint] …` message pasted
 * into the pane; turn 3 a `[checkpoint] …` message typed with send-keys.
 */
export const RECORDED = {
  file: join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'codex', '0.169.0', 'tmux', 'rollout-2026-11-22T02-13-06-01a20107-52ce-7eb2-962c-1aee279e5435.jsonl'),
  threadId: '01a20107-52ce-7eb2-962c-1aee279e5435',
  turn1: '01a20107-566d-7700-982b-c7149f58dec7',
  turn2: '01a20107-6001-7d41-bc50-a761a7d895e1',
  /** Ordinal of turn 1's `task_complete` and of turn 2's. */
  turn1End: 30,
  turn2End: 40,
  recordedRepo: '/WORK/repo',
  recordedHome: '/WORK/home',
  prompt: 'fix the failing test in calc.py',
  /** The recorded checkpoint text starts with this; tests rewrite it to the configured prefix. */
  recordedPrefix: '[checkpoint] ',
} as const;

/** A temp HOME, CODEX_HOME, state dir and git repository in the state right after turn 1. */
export interface CodexWorld {
  readonly root: string;
  readonly home: string;
  readonly codexHome: string;
  readonly repo: string;
  readonly stateDir: string;
  /** Hermetic environment (HOME, XDG dirs, CODEX_HOME, state dir, git config, PATH). */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Write the rollout up to and including `throughOrdinal`, with recorded paths mapped into this
   * world and the recorded `[checkpoint] ` prefix replaced by `prefix`. With `checkpointText`, turn
   * 2's user message (a probe's `[checkpoint] …` text) becomes that text, as when Codex runs the
   * message the route delivered. Returns its path.
   */
  writeRollout(throughOrdinal: number, prefix: string, checkpointText?: string): string;
  /** Where {@link CodexWorld.writeRollout} writes (its directory exists). */
  readonly rolloutPath: string;
  /** The Codex notify payload of a turn. */
  payload(turnId: string, inputMessages: readonly string[]): string;
  remove(): void;
}

export function createCodexWorld(): CodexWorld {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'ac-tmux-world-')));
  const home = join(root, 'home');
  const codexHome = join(home, '.codex');
  const repo = join(root, 'repo');
  const stateDir = join(root, 'state');
  mkdirSync(codexHome, { recursive: true });
  mkdirSync(repo);
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    CODEX_HOME: codexHome,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    AGENT_CHECKPOINT_STATE_DIR: stateDir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig-empty'),
    GIT_CEILING_DIRECTORIES: root,
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.invalid',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.invalid',
    LANG: 'C.UTF-8',
  };
  const git = (args: string[], extra: Record<string, string> = {}): void => {
    execFileSync('git', args, { cwd: repo, env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
  };
  // The repository before the turn (committed long before it), then the turn's edits, uncommitted.
  writeFileSync(join(repo, 'AGENTS.md'), '# Project rules\nRun the tests after every change.\n');
  writeFileSync(join(repo, 'calc.py'), 'def add(a, b):\n    return a - b\n');
  git(['init', '-q', '-b', 'main']);
  git(['add', '-A']);
  git(['commit', '-q', '--no-verify', '-m', 'before the turn'], { GIT_AUTHOR_DATE: '@1577836800 +0000', GIT_COMMITTER_DATE: '@1577836800 +0000' });
  writeFileSync(join(repo, 'calc.py'), 'def add(a, b):\n    return a + b\n');
  writeFileSync(join(repo, 'NOTES.md'), 'fixed add\n');

  const escape = (s: string): string => JSON.stringify(s).slice(1, -1);
  const rolloutPath = join(codexHome, 'sessions', '2026', '11', '22', `rollout-2026-11-22T02-13-06-${RECORDED.threadId}.jsonl`);
  mkdirSync(dirname(rolloutPath), { recursive: true });
  return {
    rolloutPath,
    root,
    home,
    codexHome,
    repo,
    stateDir,
    env,
    writeRollout(throughOrdinal, prefix, checkpointText) {
      const lines = readFileSync(RECORDED.file, 'utf8').split('\n').filter(Boolean);
      const kept = lines.filter((line) => (JSON.parse(line) as { ordinal: number }).ordinal <= throughOrdinal);
      const text = `${kept.join('\n')}\n`
        .split(escape(RECORDED.recordedRepo))
        .join(escape(repo))
        .split(escape(RECORDED.recordedHome))
        .join(escape(home))
        .split(escape(RECORDED.recordedPrefix))
        .join(escape(prefix));
      const written = checkpointText === undefined ? text : withTurn2Message(text, checkpointText);
      const path = join(codexHome, 'sessions', '2026', '11', '22', `rollout-2026-11-22T02-13-06-${RECORDED.threadId}.jsonl`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, written);
      return path;
    },
    payload(turnId, inputMessages) {
      return JSON.stringify({
        type: 'agent-turn-complete',
        'thread-id': RECORDED.threadId,
        'turn-id': turnId,
        cwd: repo,
        client: 'codex-tui',
        'input-messages': inputMessages,
        'last-assistant-message': 'Fixed calc.add and added NOTES.md.',
      });
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Turn 2's user message (its response item and its item_completed event) replaced by `message`. */
function withTurn2Message(rollout: string, message: string): string {
  type Line = { ordinal: number; payload: { content?: Array<{ text?: string }>; item?: { type?: string; content?: Array<{ text?: string }> } } };
  return rollout
    .split('\n')
    .map((line) => {
      if (line === '') return line;
      const entry = JSON.parse(line) as Line;
      if (entry.ordinal <= RECORDED.turn1End) return line;
      const content = entry.payload.item?.type === 'UserMessage' ? entry.payload.item.content : (entry.payload as { role?: string }).role === 'user' ? entry.payload.content : undefined;
      const first = content?.[0];
      if (first === undefined || typeof first.text !== 'string') return line;
      first.text = message;
      return JSON.stringify(entry);
    })
    .join('\n');
}

/** Result of running the bundled notify program. */
export interface NotifyRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly startedAt: number;
  readonly endedAt: number;
  /** The outcome JSON (`AGENT_CHECKPOINT_TMUX_REPORT=1`). */
  readonly outcome: { readonly kind: string; readonly reason?: string; readonly text?: string };
}

/** Run the bundle as Codex would: `node <bundle> [args…] <payload>` with the given environment. */
export function runNotifyBundle(bundle: string, args: readonly string[], env: Readonly<Record<string, string>>): Promise<NotifyRun> {
  const startedAt = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, ...args], {
      env: { ...env, AGENT_CHECKPOINT_TMUX_REPORT: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      let outcome: NotifyRun['outcome'] = { kind: 'no-report' };
      try {
        outcome = JSON.parse(last) as NotifyRun['outcome'];
      } catch {
        // Leave the placeholder: the assertion on outcome shows stdout/stderr.
      }
      resolve({ code, stdout, stderr, startedAt, endedAt: Date.now(), outcome });
    });
  });
}

/** Build the bundle into `dir` (what Codex runs). */
export async function buildBundle(dir: string): Promise<string> {
  const out = join(dir, 'agent-checkpoint-tmux.mjs');
  execFileSync(process.execPath, [join(import.meta.dirname, '..', '..', 'scripts', 'bundle-cli.mjs'), out], { stdio: 'pipe' });
  return out;
}
