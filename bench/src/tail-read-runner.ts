// Reads the last turn of a transcript with the agent's real reader, in this process, and reports
// time, memory and what was found. Used by the tail-read benchmark both in-process (several reads,
// cold and warm) and as a whole process (one read).
//
//   node tail-read-runner.mjs <agent id> <transcript> <hint JSON> [reads=1]
import { AGENT_IDS, DEFAULT_PREFIX, isAgentId, type AgentId, type TranscriptReader, type TurnHint } from '@agent-checkpoint/core';

/** What one runner process reports (one JSON line on stdout). */
export interface TailReadReport {
  readonly agent: AgentId;
  readonly fileBytes: number;
  readonly bytesRead: number;
  /** First read in the process (includes compiling the reader's code). */
  readonly coldMs: number;
  /** Further reads (page cache and code warm). */
  readonly warmMs: readonly number[];
  readonly turnId: string | undefined;
  readonly calls: number;
  readonly truncated: boolean;
  readonly hasData: boolean;
  readonly diagnostics: readonly string[];
  /** process.memoryUsage() right before the first read and right after it, bytes. */
  readonly memoryBefore: NodeJS.MemoryUsage;
  readonly memoryAfter: NodeJS.MemoryUsage;
  /** Peak RSS of this process at the end (getrusage), KiB. */
  readonly maxRssKiB: number;
}

async function loadReader(agent: AgentId): Promise<TranscriptReader> {
  switch (agent) {
    case 'claude':
      return (await import('@agent-checkpoint/transcript-claude')).createClaudeTranscriptReader();
    case 'gemini':
      return (await import('@agent-checkpoint/transcript-gemini')).createGeminiTranscriptReader();
    case 'codex':
      return (await import('@agent-checkpoint/transcript-codex')).createCodexTranscriptReader();
    case 'copilot':
      return (await import('@agent-checkpoint/transcript-copilot')).createCopilotTranscriptReader();
    case 'qwen':
      return (await import('@agent-checkpoint/transcript-qwen')).createQwenTranscriptReader();
    case 'pi':
      return (await import('@agent-checkpoint/transcript-pi')).createPiTranscriptReader();
  }
}

async function main(): Promise<void> {
  const [agent, path, hintJson = '{}', readsArg = '1'] = process.argv.slice(2);
  if (!isAgentId(agent) || path === undefined) {
    process.stderr.write(`usage: tail-read-runner <${AGENT_IDS.join('|')}> <file> [hint JSON] [reads]\n`);
    process.exit(64);
  }
  const hint = JSON.parse(hintJson) as TurnHint;
  const reads = Math.max(1, Number(readsArg));
  const reader = await loadReader(agent);
  const request = { transcriptPath: path, hint, checkpointPrefix: DEFAULT_PREFIX, flushWaitMs: 0 };
  const memoryBefore = process.memoryUsage();
  let started = performance.now();
  const timeline = await reader.readTurn(request);
  const coldMs = performance.now() - started;
  const memoryAfter = process.memoryUsage();
  const warmMs: number[] = [];
  for (let i = 1; i < reads; i += 1) {
    started = performance.now();
    await reader.readTurn(request);
    warmMs.push(performance.now() - started);
  }
  const report: TailReadReport = {
    agent,
    fileBytes: timeline.readStats?.fileBytes ?? Number.NaN,
    bytesRead: timeline.readStats?.bytesRead ?? Number.NaN,
    coldMs,
    warmMs,
    turnId: timeline.turnId,
    calls: timeline.calls.length,
    truncated: timeline.truncated,
    hasData: timeline.hasData,
    diagnostics: timeline.diagnostics.map((d) => d.code),
    memoryBefore,
    memoryAfter,
    maxRssKiB: process.resourceUsage().maxRSS,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

await main();
