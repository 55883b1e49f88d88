import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClaudeTranscriptReader } from './create-claude-transcript-reader.ts';
import { expectValidTimeline, fixture, PROBE_PREFIX } from './testing/fixtures.ts';

const reader = createClaudeTranscriptReader();
const temp = mkdtempSync(join(tmpdir(), 'ac-claude-server-tools-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/**
 * The derived parallel-calls session with its first answer ("Running both in parallel.") given the
 * blocks of a response in which the provider ran server tools: a web search with its result, an
 * advisor call that failed, and a web fetch whose result never came.
 */
function withServerTools(): string {
  const lines = readFileSync(fixture('derived/parallel-tool-calls.jsonl'), 'utf8').split('\n');
  const index = lines.findIndex((line) => line.includes('Running both in parallel.'));
  const entry = JSON.parse(lines[index] ?? '') as { message: { content: unknown[] } };
  entry.message.content = [
    { type: 'server_tool_use', id: 'srvtoolu_search', name: 'web_search', input: { query: 'vitest config' } },
    { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_search', content: [{ type: 'web_search_result', url: 'https://vitest.dev', title: 'Vitest' }] },
    { type: 'server_tool_use', id: 'srvtoolu_advisor', name: 'advisor', input: {} },
    { type: 'advisor_tool_result', tool_use_id: 'srvtoolu_advisor', content: { type: 'advisor_tool_result_error', error_code: 'unavailable' } },
    { type: 'server_tool_use', id: 'srvtoolu_fetch', name: 'web_fetch', input: { url: 'https://vitest.dev' } },
    { type: 'text', text: 'Running both in parallel.' },
  ];
  lines[index] = JSON.stringify(entry);
  const path = join(temp, 'server-tools.jsonl');
  writeFileSync(path, lines.join('\n'));
  return path;
}

describe('server tools (server_tool_use) in a Claude response', () => {
  it('are web or plan calls, paired with the result blocks the provider wrote into the same response', async () => {
    const timeline = await reader.readTurn({ transcriptPath: withServerTools(), checkpointPrefix: PROBE_PREFIX, flushWaitMs: 0 });
    expectValidTimeline(timeline);
    const server = timeline.calls.filter((call) => call.id.startsWith('srvtoolu_'));
    expect(server.map((call) => [call.rawName, call.kind, call.outcome])).toEqual([
      ['web_search', 'web', 'success'],
      ['advisor', 'plan', 'error'],
      ['web_fetch', 'web', 'pending'],
    ]);
    // The client calls of the session are read as before.
    expect(timeline.calls.filter((call) => call.kind === 'shell').map((call) => (call.kind === 'shell' ? call.command : ''))).toEqual(['npm test', 'git status --short']);
  });
});
