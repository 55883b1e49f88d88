import { join } from 'node:path';
import type { DeliveryFixture } from '@agent-checkpoint/core/conformance';
import { createClaudeTranscriptReader } from '@agent-checkpoint/transcript-claude';
import { createCodexTranscriptReader } from '@agent-checkpoint/transcript-codex';
import { createGeminiTranscriptReader } from '@agent-checkpoint/transcript-gemini';
import { FIXTURES_DIR } from './recorded-payloads.ts';

/**
 * One recorded turn per agent, each ending with the first stop of its turn (no checkpoint of ours
 * delivered yet). See the fixtures' README.md files for how they were recorded.
 */

/** Claude Code 2.1.330: `echo hello && false`, `echo hello-ok`, Write + Edit + Read notes.txt. */
export const CLAUDE_FIXTURE: DeliveryFixture = {
  agent: 'claude',
  reader: createClaudeTranscriptReader(),
  transcriptFile: join(FIXTURES_DIR, 'claude/2.1.330/stop-hook-exit1.jsonl'),
  recordedCwd: '/home/user/repo',
  changedFiles: { 'notes.txt': { before: null, after: 'alpha\ngamma\n' } },
  sessionId: '71101b9c-5e31-44ab-9437-993aa815bb33',
  hint: { turnId: 'b9fdfc10-e938-49ab-b40e-8495d0446421', lastAssistantMessage: 'All done: notes.txt now says alpha/gamma.' },
  allClearEvidence: ['echo hello-ok'],
};

/** Gemini CLI 0.61.0: the chat file as the hook saw it at the first AfterAgent. */
export const GEMINI_FIXTURE: DeliveryFixture = {
  agent: 'gemini',
  reader: createGeminiTranscriptReader(),
  transcriptFile: join(FIXTURES_DIR, 'gemini/0.61.0/session-headless-deny-tools.snapshot-at-first-AfterAgent.jsonl'),
  recordedCwd: '<WORK>',
  changedFiles: { 'notes.txt': { before: null, after: 'alpha\ngamma\n' } },
  sessionId: 'c16cc519-31e7-44ba-ba68-8c5ef3ba283b',
  hint: { prompt: 'Please do the task.' },
  allClearEvidence: ['echo hello-ok'],
};

/** Codex CLI 0.169.0 (`codex exec`): a failing test run, `ls`, apply_patch of calc.py + NOTES.md. */
export const CODEX_FIXTURE: DeliveryFixture = {
  agent: 'codex',
  reader: createCodexTranscriptReader(),
  transcriptFile: join(FIXTURES_DIR, 'codex/0.169.0/exec/rollout-2026-11-22T02-13-03-01a20107-4527-7350-b64a-84c60742cd58.jsonl'),
  recordedCwd: '/WORK/repo',
  changedFiles: {
    'calc.py': { before: 'def add(a, b):\n    return a - b\n', after: 'def add(a, b):\n    return a + b\n' },
    'NOTES.md': { before: null, after: 'fixed add\n' },
  },
  sessionId: '01a20107-4527-7350-b64a-84c60742cd58',
  hint: { turnId: '01a20107-455b-73c3-a72e-db02ca7de868', lastAssistantMessage: 'Fixed calc.add and added NOTES.md.' },
  allClearEvidence: ['ls'],
};

export const DELIVERY_FIXTURES: readonly DeliveryFixture[] = [CLAUDE_FIXTURE, GEMINI_FIXTURE, CODEX_FIXTURE];
