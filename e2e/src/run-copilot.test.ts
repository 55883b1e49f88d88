import { asArray, asRecord, stringField } from './mock/json-access.ts';
import { defineHeadlessAgentTests } from './harness/define-headless-agent-tests.ts';
import { CopilotSession } from './run-copilot.ts';

/**
 * copilot-cli.md: the reason comes back as a queued user message, which Copilot CLI 1.0.102 sends
 * like every user message, the time in front: `<current_datetime>…</current_datetime>\n\n<reason>`.
 */
function carriesBlockReason(body: unknown, reason: string): boolean {
  const last = asArray(asRecord(body)?.['messages'])
    .filter((m) => stringField(m, 'role') === 'user')
    .at(-1);
  return /^<current_datetime>[^<]+<\/current_datetime>\n\n/.test(stringField(last, 'content') ?? '') && stringField(last, 'content')?.endsWith(`\n\n${reason}`) === true;
}

defineHeadlessAgentTests('copilot', {
  start: (options) => CopilotSession.start(options),
  apiPath: '/v1/chat/completions',
  // Copilot CLI 1.0.102 calls a BYOK provider through the OpenAI JS SDK it bundles.
  userAgent: /^OpenAI\/JS 5\.20\.1$/,
  stopEvent: null,
  payloadKeys: { sessionId: 'sessionId', transcriptPath: 'transcriptPath' },
  stopHookActiveAfterBlock: true,
  carriesBlockReason,
});
