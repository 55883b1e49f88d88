import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deliveryRouteSuite, type DeliveryScenario } from '@agent-checkpoint/core/conformance';
import { createCodexTranscriptReader } from '@agent-checkpoint/transcript-codex';
import { afterAll } from 'vitest';
import { buildBundle, RECORDED, runNotifyBundle } from './__fixtures__/codex-world.ts';
import { startFakeCodex, startTestTmux } from './__fixtures__/tmux-test-server.ts';

/**
 * The shared delivery-route conformance suite, run against the tmux route for real: each delivery
 * starts a private tmux server with the fake Codex TUI, places the scenario's transcript where Codex
 * keeps rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<thread id>.jsonl`), runs the bundled
 * notify program with the notify payload, and returns what the TUI recorded as submitted.
 */
const work = mkdtempSync(join(tmpdir(), 'ac-tmux-conformance-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const bundle = await buildBundle(work);

// The recorded TUI session up to the end of turn 1 (turns 2 and 3 are injected checkpoints): a
// failing test run, `ls`, and a patch of calc.py + NOTES.md — what the notify route sees at turn end.
const transcriptFile = join(work, 'rollout-turn1.jsonl');
writeFileSync(
  transcriptFile,
  `${readFileSync(RECORDED.file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .filter((line) => (JSON.parse(line) as { ordinal: number }).ordinal <= RECORDED.turn1End)
    .join('\n')}\n`,
);

/** A clean Codex 0.169 TUI turn recorded for this suite (see __fixtures__/rollouts/README.md). */
const CLEAN = {
  file: join(import.meta.dirname, '__fixtures__', 'rollouts', 'rollout-2026-11-22T03-23-22-01a20147-a5df-7e03-8a4c-d4224aac9e74.jsonl'),
  threadId: '01a20147-a5df-7e03-8a4c-d4224aac9e74',
  turnId: '01a20147-a6bf-73a1-96f5-be9bbee7d452',
};

async function deliver(scenario: DeliveryScenario): Promise<string | null> {
  const codexHome = join(scenario.env['HOME'] ?? work, '.codex');
  const rollout = join(codexHome, 'sessions', '2026', '11', '22', `rollout-2026-11-22T02-13-06-${scenario.sessionId}.jsonl`);
  rmSync(rollout, { recursive: true, force: true });
  mkdirSync(join(rollout, '..'), { recursive: true });
  const source = statSync(scenario.transcriptPath, { throwIfNoEntry: false });
  if (source?.isDirectory()) mkdirSync(rollout);
  else if (source?.isFile()) copyFileSync(scenario.transcriptPath, rollout);

  const server = await startTestTmux();
  try {
    const fake = await startFakeCodex(server, ['--busy-ms', '100', '--hold-open', rollout]);
    const payload = JSON.stringify({
      type: 'agent-turn-complete',
      'thread-id': scenario.sessionId,
      'turn-id': scenario.hint.turnId,
      cwd: scenario.cwd,
      client: 'codex-tui',
      'input-messages': [scenario.hint.prompt ?? RECORDED.prompt],
      'last-assistant-message': scenario.hint.lastAssistantMessage ?? null,
    });
    const run = await runNotifyBundle(bundle, [payload], { ...scenario.env, CODEX_HOME: codexHome, ...fake.env });
    if (run.code !== 0) throw new Error(`notify exited ${run.code}: ${run.stderr}`);
    const submitted = fake.submissions();
    if (submitted.length > 1) throw new Error(`more than one submission: ${JSON.stringify(submitted)}`);
    return submitted[0] ?? null;
  } finally {
    await server.dispose();
  }
}

deliveryRouteSuite({
  route: { name: 'tmux (agent-checkpoint-tmux → fake Codex TUI)', deliver },
  supportsStopHookActive: false,
  fixtures: [
    {
      agent: 'codex',
      reader: createCodexTranscriptReader(),
      transcriptFile,
      recordedCwd: RECORDED.recordedRepo,
      changedFiles: {
        'calc.py': { before: 'def add(a, b):\n    return a - b\n', after: 'def add(a, b):\n    return a + b\n' },
        'NOTES.md': { before: null, after: 'fixed add\n' },
      },
      sessionId: RECORDED.threadId,
      hint: { turnId: RECORDED.turn1, prompt: RECORDED.prompt },
      // Same task, recorded clean: read, patch, then the test passes after the edit.
      allClear: {
        transcriptFile: CLEAN.file,
        recordedCwd: RECORDED.recordedRepo,
        sessionId: CLEAN.threadId,
        hint: { turnId: CLEAN.turnId, prompt: RECORDED.prompt },
        evidence: ['python3'],
      },
    },
  ],
});
