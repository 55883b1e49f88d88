import { asArray, asRecord, stringField } from './mock/json-access.ts';
import { defineHeadlessAgentTests } from './harness/define-headless-agent-tests.ts';
import { ClaudeSession } from './run-claude.ts';

/**
 * claude-cli.md §2.3: a JSON block becomes the user message `Stop hook feedback:\n<reason>`
 * (a string, or one text block when it is the last message), followed by a system message.
 */
function carriesBlockReason(body: unknown, reason: string): boolean {
  const messages = asArray(asRecord(body)?.['messages']);
  const feedback = `Stop hook feedback:\n${reason}`;
  return messages.some((m) => {
    if (stringField(m, 'role') !== 'user') return false;
    const content = asRecord(m)?.['content'];
    if (typeof content === 'string') return content === feedback;
    return asArray(content).some((block) => stringField(block, 'text') === feedback);
  });
}

defineHeadlessAgentTests('claude', {
  start: (options) => ClaudeSession.start(options),
  apiPath: '/v1/messages',
  userAgent: /^claude-cli\/2\.1\.330 /,
  stopEvent: 'Stop',
  stopHookActiveAfterBlock: true,
  carriesBlockReason,
});
