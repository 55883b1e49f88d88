import { AGENT_IDS } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { recordedContextPayload, recordedContextPayloads } from '../test-support/context-hook-payloads.ts';
import { readCopilotContextPayload } from './copilot-context-payload.ts';
import { encodePostToolOutput } from './encode-post-tool-output.ts';
import { readPiContextPayload } from './pi-context-payload.ts';
import { POST_TOOL_PAYLOAD_READERS } from './post-tool-payload-readers.ts';
import { AGENT_PROFILES } from './profiles.ts';
import { readQwenContextPayload } from './qwen-profile.ts';

// The context hooks' payload readers and answers of Copilot CLI 1.0.102 and Qwen Code 0.24.4, on the
// payloads recorded with the real CLIs against the loopback mock (fixtures/*/context-hooks/).

const HOME = { env: {}, home: '/WORK/home' };
const SESSION = '3b4e28ba-2fa1-4d2e-883f-0016d3cca427';
const LOG = `/WORK/home/.copilot/session-state/${SESSION}/events.jsonl`;

/** The text the session log holds once Copilot wrote this hook's `hook.start` (its input's `timestamp`). */
function mark(event: string): string {
  return `"timestamp":${String((recordedContextPayload('copilot', event) as { timestamp: number }).timestamp)}`;
}

describe('Copilot CLI context payloads', () => {
  it('sessionStart: the session, its cwd and source, and the log path derived from the session id', () => {
    expect(readCopilotContextPayload(recordedContextPayload('copilot', 'sessionStart'), HOME)).toEqual({
      event: { sessionId: SESSION, cwd: '/WORK/repo', source: 'new', transcriptPath: LOG, writeMark: mark('sessionStart') },
    });
  });

  it('userPromptSubmitted: the prompt', () => {
    expect(readCopilotContextPayload(recordedContextPayload('copilot', 'userPromptSubmitted'), HOME)).toEqual({
      event: { sessionId: SESSION, cwd: '/WORK/repo', prompt: 'Run the two checks.', transcriptPath: LOG, writeMark: mark('userPromptSubmitted') },
    });
  });

  it.each(['postToolUse', 'postToolUseFailure'])('%s: the session and its log (under $COPILOT_HOME when that is absolute)', (event) => {
    const payload = recordedContextPayload('copilot', event);
    expect(readCopilotContextPayload(payload, HOME)).toEqual({ event: { sessionId: SESSION, cwd: '/WORK/repo', transcriptPath: LOG, writeMark: mark(event) } });
    const elsewhere = readCopilotContextPayload(payload, { env: { COPILOT_HOME: '/opt/copilot' }, home: '/WORK/home' });
    expect(elsewhere).toMatchObject({ event: { transcriptPath: `/opt/copilot/session-state/${SESSION}/events.jsonl` } });
    // A relative COPILOT_HOME is not Copilot's (it reads only an absolute one).
    expect(readCopilotContextPayload(payload, { env: { COPILOT_HOME: 'rel' }, home: '/WORK/home' })).toMatchObject({ event: { transcriptPath: LOG } });
  });

  it('an agentStop block reason comes back as a userPromptSubmitted shaped like the user\'s prompt (a limit: nothing tells them apart)', () => {
    const [user, reason] = recordedContextPayloads('copilot').filter((r) => r.run === 'agentStop-block');
    expect(Object.keys(reason?.payload ?? {}).sort()).toEqual(Object.keys(user?.payload ?? {}).sort());
    expect(readCopilotContextPayload(reason?.payload, HOME)).toMatchObject({ event: { prompt: 'OTHER-HOOK-REASON also update the changelog' } });
    expect(readCopilotContextPayload(reason?.payload, HOME)).not.toHaveProperty('event.notUserPrompt');
  });

  it("preCompact: the payload's own log path and trigger", () => {
    expect(readCopilotContextPayload(recordedContextPayload('copilot', 'preCompact'), HOME)).toEqual({
      event: {
        sessionId: '1b4e28ba-2fa1-4d2e-883f-0016d3cca427',
        cwd: '/WORK/repo',
        trigger: 'auto',
        transcriptPath: '/WORK/home/.copilot/session-state/1b4e28ba-2fa1-4d2e-883f-0016d3cca427/events.jsonl',
        writeMark: mark('preCompact'),
      },
    });
  });

  it('untrusted input: a non-object, a non-string field, a session id that is no path segment', () => {
    expect(readCopilotContextPayload([], HOME)).toEqual({ error: 'Copilot hook payload: expected a JSON object' });
    expect(readCopilotContextPayload({ sessionId: 7 }, HOME)).toEqual({ error: 'Copilot hook payload: sessionId must be a string' });
    expect(readCopilotContextPayload({ sessionId: '../../etc', cwd: '/r' }, HOME)).toEqual({ event: { sessionId: '../../etc', cwd: '/r' } });
    expect(readCopilotContextPayload({ sessionId: null, prompt: '' }, HOME)).toEqual({ event: {} });
  });

  it('registers every context hook Copilot has, as opt-in entries after agentStop', () => {
    expect(AGENT_PROFILES.copilot.hookEntries.map((e) => [e.event, e.args.join(' '), e.feature ?? 'turn-end'])).toEqual([
      ['agentStop', 'copilot', 'turn-end'],
      ['sessionStart', 'session-start copilot', 'context'],
      ['preCompact', 'pre-compact copilot', 'context'],
      ['postToolUse', 'post-tool copilot', 'context'],
      ['postToolUseFailure', 'post-tool copilot', 'context'],
      ['userPromptSubmitted', 'prompt-submit copilot', 'context'],
    ]);
  });

  it('answers with a top-level additionalContext (the only form 1.0.102 reads); the user line joins it after a tool call', () => {
    expect(JSON.parse(AGENT_PROFILES.copilot.encodeSessionStart('resume here'))).toEqual({ additionalContext: 'resume here' });
    expect(JSON.parse(AGENT_PROFILES.copilot.encodePromptSubmit('too big'))).toEqual({ additionalContext: 'too big' });
    expect(JSON.parse(encodePostToolOutput('copilot', { context: 'L1 alert' }))).toEqual({ additionalContext: 'L1 alert' });
    expect(JSON.parse(encodePostToolOutput('copilot', { context: 'L2 ask', userMessage: 'handoff written' }))).toEqual({ additionalContext: 'L2 ask\n\nhandoff written' });
    expect(encodePostToolOutput('copilot', {})).toBe('');
  });
});

describe('Qwen Code context payloads', () => {
  const toolTurn = recordedContextPayloads('qwen').filter((r) => r.run === 'tool-calls' && r.event === 'UserPromptSubmit');
  const blockTurn = recordedContextPayloads('qwen').filter((r) => r.run === 'stop-block' && r.event === 'UserPromptSubmit');

  it('the recordings: UserPromptSubmit fires before every model request of a turn, all with the same prompt_id', () => {
    expect(toolTurn).toHaveLength(3);
    expect(new Set(toolTurn.map((r) => r.payload['prompt_id'])).size).toBe(1);
    expect(toolTurn.map((r) => r.payload['prompt'])).toEqual(['Run the two checks.', '', '']);
    expect(blockTurn.map((r) => r.payload['prompt'])).toEqual(['Run the check.', '', 'CHECKPOINT-REASON run make restart']);
  });

  it("the user's prompt (it carries submitted_prompt) is one; every later request of the turn is not", () => {
    for (const turn of [toolTurn, blockTurn]) {
      const [user, ...later] = turn.map((r) => readQwenContextPayload(r.payload));
      expect(user).toMatchObject({ event: { eventName: 'UserPromptSubmit', prompt: turn[0]?.payload['prompt'] } });
      expect(user).not.toHaveProperty('event.notUserPrompt');
      for (const read of later) expect(read).toMatchObject({ event: { notUserPrompt: 'UserPromptSubmit for a model request inside the turn (no submitted_prompt)' } });
    }
    // Another hook's Stop reason, which looks like a prompt, is one of them.
    expect(readQwenContextPayload(blockTurn[2]?.payload)).toMatchObject({ event: { prompt: 'CHECKPOINT-REASON run make restart', notUserPrompt: expect.any(String) } });
  });

  it('other events are read as the snake_case payloads they are', () => {
    const failure = recordedContextPayload('qwen', 'PostToolUseFailure');
    expect(readQwenContextPayload(failure)).toEqual({
      event: { eventName: 'PostToolUseFailure', sessionId: failure['session_id'], transcriptPath: failure['transcript_path'], cwd: '/WORK/repo' },
    });
    expect(readQwenContextPayload({ session_id: 5 })).toMatchObject({ error: expect.stringContaining('session_id') });
  });
});

describe('Pi context payloads (our extension: plugins/agent-checkpoint/pi/agent-checkpoint/index.js)', () => {
  const base = { session_id: 'pi-1', transcript_path: '/WORK/home/.pi/agent/sessions/--WORK-repo--/t_pi-1.jsonl', cwd: '/WORK/repo' };
  const read = { sessionId: 'pi-1', transcriptPath: base.transcript_path, cwd: '/WORK/repo' };

  it("Pi's event names are kept (each hook answers the events Pi's entries register for its mode); a misrouted name is kept too, so the hook ignores it", () => {
    expect(readPiContextPayload({ ...base, hook_event_name: 'session_start', source: 'startup' })).toEqual({ event: { eventName: 'session_start', ...read, source: 'startup' } });
    expect(readPiContextPayload({ ...base, hook_event_name: 'before_agent_start', prompt: 'Work through PLAN.md.' })).toEqual({ event: { eventName: 'before_agent_start', ...read, prompt: 'Work through PLAN.md.' } });
    expect(readPiContextPayload({ ...base, hook_event_name: 'tool_result', tool_name: 'bash', tool_call_id: 'toolu_1' })).toEqual({ event: { eventName: 'tool_result', ...read } });
    expect(readPiContextPayload({ ...base, hook_event_name: 'session_before_compact' })).toEqual({ event: { eventName: 'session_before_compact', ...read } });
    expect(readPiContextPayload({ ...base, hook_event_name: 'turn_end' })).toEqual({ event: { eventName: 'turn_end', ...read } });
    expect(readPiContextPayload({ ...base, hook_event_name: 'toString' })).toEqual({ event: { eventName: 'toString', ...read } });
  });

  it('untrusted input: a non-object or a non-string field is an error; null and empty strings are absent', () => {
    expect(readPiContextPayload('x')).toEqual({ error: 'Pi hook payload: expected a JSON object' });
    expect(readPiContextPayload({ ...base, prompt: ['x'] })).toEqual({ error: 'Pi hook payload: prompt must be a string' });
    expect(readPiContextPayload({ hook_event_name: 5 })).toEqual({ error: 'Pi hook payload: hook_event_name must be a string' });
    expect(readPiContextPayload({ session_id: null, cwd: '', transcript_path: null })).toEqual({ event: {} });
  });

  it('registers every context hook 0.73.1 has an event for, as opt-in entries after turn_end; answers with a top-level additionalContext', () => {
    expect(AGENT_PROFILES.pi.hookEntries.map((e) => [e.event, e.args.join(' '), e.feature ?? 'turn-end'])).toEqual([
      ['turn_end', 'pi', 'turn-end'],
      ['session_start', 'session-start pi', 'context'],
      ['session_before_compact', 'pre-compact pi', 'context'],
      ['tool_result', 'post-tool pi', 'context'],
      ['before_agent_start', 'prompt-submit pi', 'context'],
    ]);
    expect(JSON.parse(AGENT_PROFILES.pi.encodeSessionStart('resume here'))).toEqual({ additionalContext: 'resume here' });
    expect(JSON.parse(AGENT_PROFILES.pi.encodePromptSubmit('too big'))).toEqual({ additionalContext: 'too big' });
    // The extension shows the user line as a notice, so it stays apart from the model's context.
    expect(JSON.parse(encodePostToolOutput('pi', { context: 'L2 ask', userMessage: 'handoff written' }))).toEqual({ additionalContext: 'L2 ask', systemMessage: 'handoff written' });
    expect(JSON.parse(encodePostToolOutput('pi', { userMessage: 'handoff written' }))).toEqual({ systemMessage: 'handoff written' });
    expect(encodePostToolOutput('pi', {})).toBe('');
  });
});

describe('the monitor reads what the profiles read', () => {
  it.each(AGENT_IDS)('%s: its lean post-tool reader, if any, is the profile\'s own', (agent) => {
    const lean = POST_TOOL_PAYLOAD_READERS[agent];
    expect(lean === undefined || lean === AGENT_PROFILES[agent].readContextPayload).toBe(true);
  });

  it('Copilot has one: its post-tool payload names no transcript', () => {
    expect(POST_TOOL_PAYLOAD_READERS.copilot).toBe(readCopilotContextPayload);
  });

  it("Pi has one: its extension names Pi's events", () => {
    expect(POST_TOOL_PAYLOAD_READERS.pi).toBe(readPiContextPayload);
  });
});
