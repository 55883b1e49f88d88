import { join } from 'node:path';
import type { DeliveryFixture } from '@agent-checkpoint/core/conformance';
import { createClaudeTranscriptReader } from '@agent-checkpoint/transcript-claude';
import { createCodexTranscriptReader } from '@agent-checkpoint/transcript-codex';
import { createCopilotTranscriptReader } from '@agent-checkpoint/transcript-copilot';
import { createGeminiTranscriptReader } from '@agent-checkpoint/transcript-gemini';
import { createPiTranscriptReader } from '@agent-checkpoint/transcript-pi';
import { createQwenTranscriptReader } from '@agent-checkpoint/transcript-qwen';
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
  // TUI turn `busy task`: `sleep 5 && echo slept` succeeds; `echo slept` is the category's evidence.
  allClear: {
    transcriptFile: join(FIXTURES_DIR, 'claude/2.1.330/tui-midturn-queued-prompt.jsonl'),
    sessionId: '8937a31e-5d93-44c7-877d-b0fb9e346533',
    hint: { turnId: '329cb3c0-a03a-4e52-ab0d-b1fe5e048980', lastAssistantMessage: 'second answer' },
    evidence: ['echo slept'],
  },
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
  // After `/rewind`: the prompt `Only write notes.txt.` with one successful write_file.
  allClear: {
    transcriptFile: join(FIXTURES_DIR, 'gemini/0.61.0/derived-rewind.jsonl'),
    sessionId: 'c16cc519-31e7-44ba-ba68-8c5ef3ba283b',
    hint: { prompt: 'Only write notes.txt.' },
    evidence: [],
  },
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
  // TUI session whose last turn is a text-only answer: nothing failed, nothing to verify.
  allClear: {
    transcriptFile: join(FIXTURES_DIR, 'codex/0.169.0/tui-steer-and-injection/rollout-2026-11-22T02-06-53-01a20101-9f1b-7852-92e7-1026a82976d8.jsonl'),
    sessionId: '01a20101-9f1b-7852-92e7-1026a82976d8',
    hint: { turnId: '01a20102-d1e3-74a0-a967-49ace0795d2c' },
    evidence: [],
  },
};

/** Copilot CLI 1.0.102 (`copilot -p`): greeting.txt edited without a read, CHANGELOG.md created. */
export const COPILOT_FIXTURE: DeliveryFixture = {
  agent: 'copilot',
  reader: createCopilotTranscriptReader(),
  transcriptFile: join(FIXTURES_DIR, 'copilot/1.0.102/recorded/edit-without-read.jsonl'),
  recordedCwd: '/WORK/repo',
  changedFiles: {
    'greeting.txt': { before: 'Hello\n', after: 'Hello, friend!\n' },
    'CHANGELOG.md': { before: null, after: '# Changelog\n\n- Friendlier greeting.\n' },
  },
  sessionId: 'ef9f9337-6a06-4120-9283-9f43cd1ac4d4',
  hint: {},
  // The second prompt after an interrupted one: a text-only answer, nothing to verify.
  allClear: {
    transcriptFile: join(FIXTURES_DIR, 'copilot/1.0.102/recorded/interrupted-turn.jsonl'),
    sessionId: 'd9717d17-c2f2-47de-9f43-17b78f50fb08',
    hint: {},
    evidence: [],
  },
};

/** Pi 0.73.1 (`pi -p`, fixtures/pi/0.73.1/recorded): the test fails, read, edit calc.mjs, the test passes. */
export const PI_FIXTURE: DeliveryFixture = {
  agent: 'pi',
  reader: createPiTranscriptReader(),
  transcriptFile: join(FIXTURES_DIR, 'pi/0.73.1/recorded/fail-fix-pass.jsonl'),
  recordedCwd: '/WORK/repo',
  changedFiles: { 'calc.mjs': { before: 'export function add(a, b) {\n  return a - b;\n}\n', after: 'export function add(a, b) {\n  return a + b;\n}\n' } },
  sessionId: '01a22177-ab7d-728c-9511-879185299fdc',
  hint: { prompt: 'The calc test fails. Fix it.', lastAssistantMessage: 'Fixed add() in calc.mjs; node calc.test.mjs passes now.' },
  // The second prompt of `second-turn`: one successful edit of greeting.txt.
  allClear: {
    transcriptFile: join(FIXTURES_DIR, 'pi/0.73.1/recorded/second-turn.jsonl'),
    recordedCwd: '/WORK/repo',
    sessionId: '01a22177-fdf8-747e-b4a2-391fef3bcf25',
    hint: { prompt: 'Add a farewell line to it.' },
    evidence: [],
  },
};

/**
 * Qwen Code 0.24.4 (`qwen -p`, recorded scenario fail-fix-pass): `node calc.test.mjs` fails, read +
 * edit of calc.mjs, the same command passes; the file as it was at the turn's only Stop.
 */
export const QWEN_FIXTURE: DeliveryFixture = {
  agent: 'qwen',
  reader: createQwenTranscriptReader(),
  transcriptFile: join(FIXTURES_DIR, 'qwen/0.24.4/recorded/fail-fix-pass.jsonl'),
  recordedCwd: '/WORK/repo',
  changedFiles: { 'calc.mjs': { before: 'export function add(a, b) {\n  return a - b;\n}\n', after: 'export function add(a, b) {\n  return a + b;\n}\n' } },
  sessionId: '5be17c84-5844-4b88-9426-4f4abadac4d8',
  hint: { turnId: '5be17c84-5844-4b88-9426-4f4abadac4d8########0', lastAssistantMessage: "Fixed add() in calc.mjs; node calc.test.mjs passes now." },
  // The same turn once its passing test run counts as the evidence.
  allClear: {
    transcriptFile: join(FIXTURES_DIR, 'qwen/0.24.4/recorded/fail-fix-pass.jsonl'),
    sessionId: '5be17c84-5844-4b88-9426-4f4abadac4d8',
    hint: { turnId: '5be17c84-5844-4b88-9426-4f4abadac4d8########0' },
    evidence: ['node calc.test.mjs'],
  },
};

export const DELIVERY_FIXTURES: readonly DeliveryFixture[] = [CLAUDE_FIXTURE, GEMINI_FIXTURE, CODEX_FIXTURE, COPILOT_FIXTURE, QWEN_FIXTURE, PI_FIXTURE];
