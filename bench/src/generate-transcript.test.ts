import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PREFIX, type AgentId, type TranscriptReader } from '@agent-checkpoint/core';
import { createClaudeTranscriptReader } from '@agent-checkpoint/transcript-claude';
import { createCodexTranscriptReader } from '@agent-checkpoint/transcript-codex';
import { createCopilotTranscriptReader } from '@agent-checkpoint/transcript-copilot';
import { createGeminiTranscriptReader } from '@agent-checkpoint/transcript-gemini';
import { createPiTranscriptReader } from '@agent-checkpoint/transcript-pi';
import { createQwenTranscriptReader } from '@agent-checkpoint/transcript-qwen';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENTS, loadScenario } from './bench-scenarios.ts';
import { ensureTranscript, finalTurnText, withFinalTurn } from './generate-transcript.ts';
import { benchPaths } from './repo-root.ts';

const paths = benchPaths();
const dir = mkdtempSync(join(tmpdir(), 'ac-bench-gen-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readers: Record<AgentId, TranscriptReader> = {
  claude: createClaudeTranscriptReader(),
  gemini: createGeminiTranscriptReader(),
  codex: createCodexTranscriptReader(),
  copilot: createCopilotTranscriptReader(),
  qwen: createQwenTranscriptReader(),
  pi: createPiTranscriptReader(),
};

describe.each(AGENTS)('generated %s transcripts', (agent) => {
  const scenario = loadScenario(paths.fixtures, agent);
  const reader = readers[agent];
  const read = (path: string) => reader.readTurn({ transcriptPath: path, hint: scenario.hint, checkpointPrefix: DEFAULT_PREFIX, flushWaitMs: 0 });

  it('end with the recorded turn, which the hint finds past the repeated history', async () => {
    const reference = await read(scenario.transcriptFile);
    expect(reference.hasData).toBe(true);
    const cached = ensureTranscript(dir, scenario, '2mib', 2 * 1024 * 1024);
    expect(cached.historyTurns).toBeGreaterThan(3);
    const finalTurn = finalTurnText(scenario, cached.historyTurns, '/tmp/bench-repo', '/tmp/bench-home');
    // The recorded placeholders point at the run's repository and home (Pi's turn names no absolute
    // path: its tools take relative ones and the cwd is in the session header).
    const recordedTurn = readFileSync(scenario.transcriptFile, 'utf8').split('\n').slice(scenario.headerLines).join('\n');
    if (recordedTurn.includes('/WORK/repo')) expect(finalTurn).toContain('/tmp/bench-repo');
    expect(finalTurn.includes('/WORK/repo/') || finalTurn.includes('"/WORK/repo"')).toBe(false);
    const timeline = await withFinalTurn(cached, finalTurn, async (path, total) => {
      expect(statSync(path).size).toBe(total);
      expect(total).toBeGreaterThan(1.5 * 1024 * 1024);
      return read(path);
    });
    expect(timeline.turnId).toBe(reference.turnId);
    expect(timeline.calls.map((c) => [c.kind, c.outcome])).toEqual(reference.calls.map((c) => [c.kind, c.outcome]));
    expect(timeline.truncated).toBe(false);
  });

  it('cuts the final turn off again and reuses the cached file', () => {
    const cached = ensureTranscript(dir, scenario, '2mib', 2 * 1024 * 1024);
    expect(cached.generated).toBe(false);
    expect(statSync(cached.path).size).toBe(cached.baseBytes);
  });
});
