import { describe, expect, it } from 'vitest';
import { encodeQwenStop, qwenProfile, readQwenStopPayload } from './qwen-profile.ts';

// A Stop payload as Qwen Code 0.24.4 sent it (fixtures/qwen/0.24.4/recorded/block-and-continue.hook-payloads.jsonl).
const STOP = {
  session_id: '56081f12-a56e-4420-8879-3593655a67d3',
  transcript_path: '/WORK/home/.qwen/projects/-WORK-repo/chats/56081f12-a56e-4420-8879-3593655a67d3.jsonl',
  cwd: '/WORK/repo',
  hook_event_name: 'Stop',
  timestamp: '2026-11-28T08:34:10.000Z',
  permission_mode: 'yolo',
  prompt_id: '56081f12-a56e-4420-8879-3593655a67d3########0',
  stop_hook_active: true,
  last_assistant_message: 'Ran node calc.test.mjs: it passes.',
  background_tasks: [],
  crons: [],
  context_usage: 0.0004,
  context_limit: 262144,
  input_tokens: 100,
};

describe('qwen profile', () => {
  it('reads the Stop payload: prompt_id names the turn, last_assistant_message the final text, stop_hook_active the re-entry', () => {
    const read = readQwenStopPayload(STOP);
    expect(read.kind).toBe('event');
    if (read.kind !== 'event') return;
    expect(read.event).toMatchObject({
      agent: 'qwen',
      isTurnEnd: true,
      sessionId: STOP.session_id,
      transcriptPath: STOP.transcript_path,
      stopHookActive: true,
      hint: { turnId: STOP.prompt_id, lastAssistantMessage: STOP.last_assistant_message },
    });
  });

  it('refuses a payload whose fields have the wrong types, with one line naming it', () => {
    const read = readQwenStopPayload({ ...STOP, prompt_id: 7 });
    expect(read.kind).toBe('invalid');
    if (read.kind === 'invalid') expect(read.detail).toMatch(/^Qwen Stop payload: /);
  });

  it('blocks with {"decision":"block","reason"} and never {"continue":false}, which continues on Qwen', () => {
    const block = JSON.parse(encodeQwenStop({ kind: 'block', reason: 'R' })) as Record<string, unknown>;
    expect(block).toEqual({ decision: 'block', reason: 'R' });
    expect(encodeQwenStop({ kind: 'pass' })).toBe('');
    const withNotice = JSON.parse(encodeQwenStop({ kind: 'pass', notice: 'agent-checkpoint: n' })) as Record<string, unknown>;
    expect(withNotice).toEqual({ systemMessage: 'agent-checkpoint: n' });
    expect(Object.keys(withNotice)).not.toContain('continue');
  });

  it('registers the monitor for PostToolUse and PostToolUseFailure (a failing call fires only the latter), timeouts in seconds', () => {
    const monitor = qwenProfile.hookEntries.filter((entry) => entry.args[0] === 'post-tool').map((entry) => entry.event);
    expect(monitor).toEqual(['PostToolUse', 'PostToolUseFailure']);
    expect(qwenProfile.hookEntries[0]).toMatchObject({ event: 'Stop', args: ['qwen'] });
    expect(qwenProfile.hookTimeoutUnit).toBe('seconds');
    const handler = qwenProfile.hookHandler(qwenProfile.hookEntries[0]!, 'agent-checkpoint-hook qwen');
    // 0.24.4 reads 1000 or more as milliseconds: our value must stay a small number of seconds.
    expect(handler).toEqual({ type: 'command', command: 'agent-checkpoint-hook qwen', timeout: 30 });
  });

  it('puts user hooks in $QWEN_HOME/settings.json, else ~/.qwen/settings.json; project hooks in <repo>/.qwen/settings.json', () => {
    const where = { env: {}, home: '/h', cwd: '/r/sub', projectRoot: '/r' };
    expect(qwenProfile.settingsPath('user', where)).toBe('/h/.qwen/settings.json');
    expect(qwenProfile.settingsPath('user', { ...where, env: { QWEN_HOME: '/q' } })).toBe('/q/settings.json');
    expect(qwenProfile.settingsPath('project', where)).toBe('/r/.qwen/settings.json');
  });

  it('doctor warns when QWEN_CODE_STOP_HOOK_BLOCK_CAP leaves no continuation, and says nothing for the default', async () => {
    const input = (env: Record<string, string>) => ({
      location: { env, home: '/h', cwd: '/r', projectRoot: '/r' },
      registered: ['user' as const],
      ours: new Map(),
      settingsPathOf: () => '/h/.qwen/settings.json',
    });
    expect(await qwenProfile.doctorFindings(input({}))).toEqual([]);
    expect(await qwenProfile.doctorFindings(input({ QWEN_CODE_STOP_HOOK_BLOCK_CAP: '8' }))).toEqual([]);
    const findings = await qwenProfile.doctorFindings(input({ QWEN_CODE_STOP_HOOK_BLOCK_CAP: '1' }));
    expect(findings.map((f) => [f.id, f.status])).toEqual([['qwen.stop-block-cap', 'warn']]);
  });
});
