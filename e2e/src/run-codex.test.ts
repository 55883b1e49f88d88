import { expect } from 'vitest';
import { asArray, asRecord, stringField } from './mock/json-access.ts';
import { defineHeadlessAgentTests } from './harness/define-headless-agent-tests.ts';
import { CodexSession } from './run-codex.ts';

/**
 * codex-cli.md §4: the reason arrives as a user message
 * `<hook_prompt hook_run_id="stop:<i>:<hooks.json>">REASON</hook_prompt>` (XML-escaped).
 */
function carriesBlockReason(body: unknown, reason: string): boolean {
  const escaped = reason.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const pattern = /^<hook_prompt hook_run_id="stop:\d+:[^"]*hooks\.json">([\s\S]*)<\/hook_prompt>$/;
  return asArray(asRecord(body)?.['input']).some(
    (item) =>
      stringField(item, 'role') === 'user' &&
      asArray(asRecord(item)?.['content']).some((part) => pattern.exec(stringField(part, 'text') ?? '')?.[1] === escaped),
  );
}

defineHeadlessAgentTests('codex exec', {
  start: (options) => CodexSession.start(options),
  apiPath: '/v1/responses',
  userAgent: /^codex_exec\/0\.169\.0 /,
  stopEvent: 'Stop',
  stopHookActiveAfterBlock: true,
  carriesBlockReason,
  afterRun: async (session, completedTurns) => {
    // notify fires once per completed turn (after the last Stop), with codex_exec as client.
    await session.waitForNotifications(completedTurns);
    const notes = session.mainThreadNotifications();
    expect(notes).toHaveLength(completedTurns);
    expect(notes.map((n) => n.payload?.['client'])).toEqual(Array(completedTurns).fill('codex_exec'));
    expect(notes.at(-1)?.payload?.['type']).toBe('agent-turn-complete');
  },
});
