import { asArray, asRecord, stringField } from './mock/json-access.ts';
import { defineHeadlessAgentTests } from './harness/define-headless-agent-tests.ts';
import { QwenSession } from './run-qwen.ts';

/**
 * qwen-code.md: the Stop block reason reaches the model as a chat-completions user message, as is
 * (a string, or one text part), and is never written to the chat file.
 */
function carriesBlockReason(body: unknown, reason: string): boolean {
  const last = asArray(asRecord(body)?.['messages'])
    .filter((m) => stringField(m, 'role') === 'user')
    .at(-1);
  const content = asRecord(last)?.['content'];
  if (typeof content === 'string') return content === reason;
  const texts = asArray(content).flatMap((part) => (stringField(part, 'type') === 'text' ? [stringField(part, 'text')] : []));
  return texts.length === 1 && texts[0] === reason;
}

defineHeadlessAgentTests('qwen', {
  start: (options) => QwenSession.start(options),
  apiPath: '/v1/chat/completions',
  userAgent: /^QwenCode\/0\.24\.4 /,
  stopEvent: 'Stop',
  stopHookActiveAfterBlock: true,
  carriesBlockReason,
});
