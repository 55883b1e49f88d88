import { describe, expect, it } from 'vitest';
import { classifyClaudeUserEntry, extractCheckpointText, isTaskNotificationPrompt } from './classify-claude-user-entry.ts';
import type { ClaudeUserEntry } from './parse-claude-entry.ts';

const PREFIX = 'AGENT-CHECKPOINT';

function user(fields: Partial<ClaudeUserEntry>): ClaudeUserEntry {
  return { kind: 'user', uuid: 'u', isMeta: false, isCompactSummary: false, isVisibleInTranscriptOnly: false, toolResults: [], ...fields };
}

describe('extractCheckpointText', () => {
  it.each([
    ['JSON block', 'Stop hook feedback:\nAGENT-CHECKPOINT: run the tests', 'AGENT-CHECKPOINT: run the tests'],
    ['exit 2', 'Stop hook feedback:\n[node "/opt/harness/probe-hook.mjs"]: AGENT-CHECKPOINT: run the tests\n', 'AGENT-CHECKPOINT: run the tests'],
    ['exit 2, command with brackets', 'Stop hook feedback:\n[sh -c "[ -x a ] && b"]: AGENT-CHECKPOINT: x\n', 'AGENT-CHECKPOINT: x'],
    ['exit 2, second hook', 'Stop hook feedback:\n[other-hook]: lint failed\n[agent-checkpoint-hook]: AGENT-CHECKPOINT: y\n', 'AGENT-CHECKPOINT: y'],
    ['multi-line message', 'Stop hook feedback:\nAGENT-CHECKPOINT: a\n- b\n- c', 'AGENT-CHECKPOINT: a\n- b\n- c'],
    ['typed directly', 'AGENT-CHECKPOINT: typed into the pane', 'AGENT-CHECKPOINT: typed into the pane'],
  ])('recognises %s', (_, text, expected) => {
    expect(extractCheckpointText(text, PREFIX)).toBe(expected);
  });

  it.each([
    ['another hook', 'Stop hook feedback:\nlint failed'],
    ['another hook, exit 2', 'Stop hook feedback:\n[lint]: lint failed\n'],
    ['prefix mid-line', 'Stop hook feedback:\nplease run AGENT-CHECKPOINT later'],
    ['prefix later in a prompt', 'what does AGENT-CHECKPOINT mean?'],
    ['no header', '[cmd]: AGENT-CHECKPOINT: x'],
  ])('rejects %s', (_, text) => {
    expect(extractCheckpointText(text, PREFIX)).toBeUndefined();
  });

  it('an empty prefix matches nothing', () => {
    expect(extractCheckpointText('Stop hook feedback:\nanything', '')).toBeUndefined();
    expect(extractCheckpointText('anything', '')).toBeUndefined();
  });
});

describe('classifyClaudeUserEntry', () => {
  it.each<[string, Partial<ClaudeUserEntry>, string]>([
    ['-p prompt', { text: 'do the task', promptSource: 'sdk', turnOrigin: 'sdk' }, 'prompt'],
    ['typed prompt', { text: 'hi', promptSource: 'typed', turnOrigin: 'human' }, 'prompt'],
    ['task notification', { text: '<task-notification>\n…', promptSource: 'system', turnOrigin: 'task_notification' }, 'prompt'],
    ['older prompt without promptSource', { text: 'fix it' }, 'prompt'],
    ['our checkpoint (isMeta feedback)', { text: 'Stop hook feedback:\nAGENT-CHECKPOINT: x', isMeta: true }, 'checkpoint'],
    ['our checkpoint even without isMeta', { text: 'AGENT-CHECKPOINT: x', promptSource: 'typed' }, 'checkpoint'],
    ['other hook feedback', { text: 'Stop hook feedback:\nlint failed', isMeta: true }, 'meta'],
    ['local-command caveat', { text: '<local-command-caveat>Caveat…', isMeta: true }, 'meta'],
    ['compact summary', { text: 'This session is being continued…', isCompactSummary: true, isVisibleInTranscriptOnly: true }, 'compact-summary'],
    ['/compact echo', { text: '<command-name>/compact</command-name>\n<command-message>compact</command-message>' }, 'command-echo'],
    ['command stdout', { text: '<local-command-stdout>Compacted </local-command-stdout>' }, 'command-echo'],
    ['bash mode', { text: '<bash-input>ls</bash-input>' }, 'command-echo'],
    ['interrupt marker', { text: '[Request interrupted by user for tool use]' }, 'interrupt'],
    ['interrupt marker 2', { text: '[Request interrupted by user]' }, 'interrupt'],
    ['tool results only', { toolResults: [{ toolUseId: 't', isError: false }] }, 'tool-results'],
    ['blank text with tool results', { text: ' ', toolResults: [{ toolUseId: 't', isError: false }] }, 'tool-results'],
    ['nothing', {}, 'empty'],
  ])('%s → %s', (_, fields, role) => {
    expect(classifyClaudeUserEntry(user(fields), PREFIX)).toBe(role);
  });

  it('a slash command that prompts the model is a prompt when Claude marks it as one', () => {
    expect(classifyClaudeUserEntry(user({ text: '<command-name>/review</command-name>', promptSource: 'typed' }), PREFIX)).toBe('prompt');
  });
});

describe('isTaskNotificationPrompt', () => {
  it('by turnOrigin, or by content on versions without it', () => {
    expect(isTaskNotificationPrompt(user({ text: 'x', turnOrigin: 'task_notification' }))).toBe(true);
    expect(isTaskNotificationPrompt(user({ text: '<task-notification>\n<task-id>1</task-id>' }))).toBe(true);
    expect(isTaskNotificationPrompt(user({ text: 'do it', turnOrigin: 'human' }))).toBe(false);
  });
});
