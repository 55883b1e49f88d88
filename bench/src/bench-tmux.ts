import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, appendFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { AgentScenario } from './bench-scenarios.ts';
import type { BenchRepo } from './bench-hook.ts';
import { finalTurnText, type CachedTranscript } from './generate-transcript.ts';
import { runMeasured, type ProcessSample } from './measure-process.ts';
import { FLOOR_ARGV, toStats } from './process-stats.ts';
import type { BenchPaths } from './repo-root.ts';
import type { TmuxResult } from './results.ts';
import { summarize } from './stats.ts';

export interface TmuxBenchInput {
  readonly paths: BenchPaths;
  /** The Codex scenario: its rollout (1 MiB) is placed where the notify program looks for it. */
  readonly scenario: AgentScenario;
  readonly transcript: CachedTranscript | undefined;
  readonly repo: BenchRepo;
  readonly tempRoot: string;
  readonly runs: number;
  readonly log: (line: string) => void;
}

interface FakeEvent {
  readonly t: number;
  readonly type: string;
  readonly text?: string;
}

/**
 * Injection latency of the tmux route: the bundled notify program, started the way Codex starts it,
 * against the fake Codex TUI of delivery-tmux in a pane of a private tmux server (its own socket in a
 * temp dir, never the user's server). Measures notify start → paste in the pane → submission recorded
 * by the TUI, plus the notify process's wall time and peak RSS next to bare node.
 */
export async function benchTmux(input: TmuxBenchInput): Promise<TmuxResult> {
  const { paths, scenario, repo } = input;
  if (spawnSync('tmux', ['-V']).status !== 0) return { skipped: 'tmux is not installed' };
  if (!existsSync(paths.tmuxBundle)) return { skipped: `${paths.tmuxBundle} is missing (build @agent-checkpoint/delivery-tmux)` };
  if (!existsSync(paths.fakeCodex)) return { skipped: `the fake Codex TUI is missing (${paths.fakeCodex})` };
  if (input.transcript === undefined) return { skipped: 'no Codex transcript was generated' };

  const dir = mkdtempSync(join(input.tempRoot, 'tmux-'));
  const socket = join(dir, 'tmux.sock');
  const events = join(dir, 'events.jsonl');
  const tmux = (...args: string[]): string =>
    execFileSync('tmux', ['-S', socket, '-f', '/dev/null', ...args], { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    // The rollout where Codex keeps it: $CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<thread id>.jsonl.
    const codexHome = join(repo.home, '.codex');
    const rollout = join(codexHome, 'sessions', '2026', '11', '22', basename(String(scenario.payload['transcript_path'])));
    mkdirSync(dirname(rollout), { recursive: true });
    copyFileSync(input.transcript.path, rollout);
    appendFileSync(rollout, finalTurnText(scenario, input.transcript.historyTurns, repo.dir, repo.home));

    tmux('new-session', '-d', '-s', 'bench', '-x', '160', '-y', '40', '--', process.execPath, paths.fakeCodex, '--record', events, '--busy-ms', '50');
    const [paneId = '', serverPid = ''] = tmux('display-message', '-p', '-t', 'bench:', '#{pane_id} #{pid}').trim().split(' ');
    const readEvents = (): FakeEvent[] =>
      existsSync(events)
        ? readFileSync(events, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as FakeEvent)
        : [];
    const capture = (): string => tmux('capture-pane', '-p', '-t', paneId);
    await waitFor(() => readEvents().some((e) => e.type === 'ready') && capture().includes('› '), 'the fake Codex TUI to start');

    const notifyPayload = JSON.stringify({
      type: 'agent-turn-complete',
      'thread-id': scenario.payload['session_id'],
      'turn-id': scenario.payload['turn_id'],
      cwd: repo.dir,
      client: 'codex-tui',
      'input-messages': [promptOf(paths.fixtures)],
      'last-assistant-message': scenario.payload['last_assistant_message'],
    });
    const baseEnv = { ...repo.env, CODEX_HOME: codexHome, TMUX: `${socket},${serverPid},0`, TMUX_PANE: paneId, AGENT_CHECKPOINT_TMUX_REPORT: '1' };

    const toPaste: number[] = [];
    const toSubmit: number[] = [];
    const pasteToSubmit: number[] = [];
    const notifySamples: ProcessSample[] = [];
    const floorSamples: ProcessSample[] = [];
    for (let i = 0; i < input.runs + 1; i += 1) {
      await waitFor(() => {
        const screen = capture();
        return screen.includes('? for shortcuts') && !screen.includes('esc to interrupt');
      }, 'the fake Codex TUI to be idle');
      const before = readEvents().length;
      const stateDir = mkdtempSync(join(dir, 'state-'));
      const startedAt = Date.now();
      const sample = runMeasured([process.execPath, paths.tmuxBundle, notifyPayload], { env: { ...baseEnv, AGENT_CHECKPOINT_STATE_DIR: stateDir }, timeoutMs: 60_000 });
      rmSync(stateDir, { recursive: true, force: true });
      const outcome = sample.stdout.trim().split('\n').at(-1) ?? '';
      if (!outcome.includes('"delivered"')) throw new Error(`notify did not deliver: ${outcome} ${sample.stderr}`);
      await waitFor(() => readEvents().slice(before).some((e) => e.type === 'submit'), 'the submission');
      const fresh = readEvents().slice(before);
      const paste = fresh.find((e) => e.type === 'paste');
      const submit = fresh.find((e) => e.type === 'submit');
      if (i === 0) continue; // warm-up
      floorSamples.push(runMeasured(FLOOR_ARGV, { env: repo.env }));
      notifySamples.push(sample);
      if (submit !== undefined) toSubmit.push(submit.t - startedAt);
      if (paste !== undefined) toPaste.push(paste.t - startedAt);
      if (paste !== undefined && submit !== undefined) pasteToSubmit.push(submit.t - paste.t);
    }
    const result: TmuxResult = {
      runs: input.runs,
      startToSubmitMs: summarize(toSubmit),
      startToPasteMs: summarize(toPaste),
      pasteToSubmitMs: summarize(pasteToSubmit),
      notifyWallMs: summarize(notifySamples.map((s) => s.wallMs)),
      notifyPeakRssMiB: summarize(notifySamples.map((s) => s.peakRssKiB / 1024)),
      floor: toStats(floorSamples),
    };
    input.log(
      `  tmux: start → paste ${result.startToPasteMs?.median.toFixed(0)} ms, → submitted ${result.startToSubmitMs?.median.toFixed(0)} ms (p90 ${result.startToSubmitMs?.p90.toFixed(0)}), notify RSS ${result.notifyPeakRssMiB?.median.toFixed(1)} MiB`,
    );
    return result;
  } finally {
    if (existsSync(socket)) {
      let pids: number[] = [];
      try {
        pids = tmux('list-panes', '-a', '-F', '#{pane_pid}').split('\n').filter(Boolean).map(Number);
        tmux('kill-server');
      } catch {
        // Already gone.
      }
      await waitFor(() => pids.every((pid) => !isAlive(pid)), 'the pane processes to exit').catch(() => undefined);
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

function promptOf(fixtures: string): string {
  const scenarios = JSON.parse(readFileSync(join(fixtures, 'codex', '0.169.0', 'recorded', 'scenarios.json'), 'utf8')) as { name: string; prompts: string[] }[];
  return scenarios.find((s) => s.name === 'fail-fix-pass')?.prompts[0] ?? '';
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Poll `condition` until it holds, or throw after `timeoutMs` (never a bare sleep). */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

