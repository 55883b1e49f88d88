// Child-process entry of read-turn-races.test.ts, bundled with esbuild: call one agent's `readTurn`
// (or `locateTranscript`) many times on a path another process keeps replacing, and print what came
// back. It runs out of process because a read that blocks (a FIFO opened without O_NONBLOCK) stops
// the event loop: only the parent's hard timeout can then end it, and that timeout is the failure.
import { isAgentId, type AgentId, type TranscriptReader } from '@agent-checkpoint/core';
import { createClaudeTranscriptReader } from '@agent-checkpoint/transcript-claude';
import { createCodexTranscriptReader } from '@agent-checkpoint/transcript-codex';
import { createCopilotTranscriptReader } from '@agent-checkpoint/transcript-copilot';
import { createGeminiTranscriptReader } from '@agent-checkpoint/transcript-gemini';
import { createPiTranscriptReader } from '@agent-checkpoint/transcript-pi';
import { createQwenTranscriptReader } from '@agent-checkpoint/transcript-qwen';

const [agent = '', path = '', iterationsText = '1000'] = process.argv.slice(2);
// Every agent's reader: a new agent id does not compile until it is here.
const readers: Record<AgentId, () => TranscriptReader> = {
  claude: createClaudeTranscriptReader,
  gemini: createGeminiTranscriptReader,
  codex: createCodexTranscriptReader,
  copilot: createCopilotTranscriptReader,
  qwen: createQwenTranscriptReader,
  pi: createPiTranscriptReader,
};
if (!isAgentId(agent)) throw new Error(`unknown agent ${agent}`);
const reader = readers[agent]();
const codes: Record<string, number> = {};
let withData = 0;
const iterations = Number(iterationsText);
for (let i = 0; i < iterations; i++) {
  const timeline = await reader.readTurn({ transcriptPath: path, checkpointPrefix: '[agent-checkpoint]', flushWaitMs: 0 });
  if (timeline.agent !== agent || !Array.isArray(timeline.calls) || typeof timeline.hasData !== 'boolean') {
    throw new Error(`not a timeline: ${JSON.stringify(timeline).slice(0, 300)}`);
  }
  if (timeline.hasData) withData += 1;
  for (const diagnostic of timeline.diagnostics) codes[diagnostic.code] = (codes[diagnostic.code] ?? 0) + 1;
}
process.stdout.write(`${JSON.stringify({ iterations, withData, codes })}\n`);
process.exit(0);
