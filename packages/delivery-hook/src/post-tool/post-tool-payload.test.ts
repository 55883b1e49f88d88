import { describe, expect, it } from 'vitest';
import { readPostToolPayload } from './post-tool-payload.ts';

// The write mark the monitor waits for (wait-for-tool-call.ts): the reported call's id, as Claude
// Code's transcript holds it — but not for a subagent's call, which goes to the subagent's own
// transcript and would make every such call wait out the bound.

const BASE = { session_id: 's-1', transcript_path: '/t/s-1.jsonl', cwd: '/r', hook_event_name: 'PostToolUse', tool_name: 'Bash' };

describe('readPostToolPayload: the write mark', () => {
  it('the main thread\'s call: its tool_use_id as a JSON string', () => {
    expect(readPostToolPayload(JSON.stringify({ ...BASE, tool_use_id: 'toolu_01' }))).toEqual({
      event: { eventName: 'PostToolUse', sessionId: 's-1', transcriptPath: '/t/s-1.jsonl', cwd: '/r', writeMark: '"toolu_01"' },
    });
  });

  it('a subagent\'s call (agent_id present): no mark, so no wait', () => {
    const read = readPostToolPayload(JSON.stringify({ ...BASE, tool_use_id: 'toolu_02', agent_id: 'a-1', agent_type: 'general-purpose' }));
    expect(read).toEqual({ event: { eventName: 'PostToolUse', sessionId: 's-1', transcriptPath: '/t/s-1.jsonl', cwd: '/r' } });
  });

  it('an id that is no usable string is ignored, not an error', () => {
    for (const id of [7, '', 'x'.repeat(201), null]) {
      expect(readPostToolPayload(JSON.stringify({ ...BASE, tool_use_id: id }))).not.toHaveProperty('event.writeMark');
      expect(readPostToolPayload(JSON.stringify({ ...BASE, tool_use_id: id }))).toHaveProperty('event');
    }
  });
});
