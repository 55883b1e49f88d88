import { asArray, asRecord, stringField } from './mock/json-access.ts';
import { defineHeadlessAgentTests } from './harness/define-headless-agent-tests.ts';
import { PiSession } from './run-pi.ts';

/**
 * Our extension sends the reason with `pi.sendUserMessage(R, {deliverAs: "followUp"})`: Pi appends it
 * as a plain user message, `{"role":"user","content":[{"type":"text","text":R}]}` on the Anthropic API.
 */
function carriesBlockReason(body: unknown, reason: string): boolean {
  const last = asArray(asRecord(body)?.['messages']).filter((m) => stringField(m, 'role') === 'user').at(-1);
  const content = asRecord(last)?.['content'];
  if (typeof content === 'string') return content === reason;
  const texts = asArray(content).filter((block) => stringField(block, 'type') === 'text');
  return texts.length === 1 && stringField(texts[0], 'text') === reason;
}

defineHeadlessAgentTests('pi', {
  start: (options) => PiSession.start(options),
  apiPath: '/v1/messages',
  userAgent: /^Anthropic\/JS /,
  stopEvent: 'turn_end',
  // The extension counts its own follow-ups: the stop after a block says so.
  stopHookActiveAfterBlock: true,
  carriesBlockReason,
});
