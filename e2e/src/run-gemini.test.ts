import { asArray, asRecord, stringField } from './mock/json-access.ts';
import { defineHeadlessAgentTests } from './harness/define-headless-agent-tests.ts';
import { GEMINI_MODEL, GeminiSession } from './run-gemini.ts';

/** gemini-cli.md §2: the reason is appended verbatim as `{"role":"user","parts":[{"text":R}]}`. */
function carriesBlockReason(body: unknown, reason: string): boolean {
  const last = asArray(asRecord(body)?.['contents']).at(-1);
  const parts = asArray(asRecord(last)?.['parts']);
  return stringField(last, 'role') === 'user' && parts.length === 1 && stringField(parts[0], 'text') === reason;
}

defineHeadlessAgentTests('gemini', {
  start: (options) => GeminiSession.start(options),
  apiPath: `/v1beta/models/${GEMINI_MODEL}:streamGenerateContent`,
  userAgent: /^GeminiCLI(-tui)?\/0\.61\.0\//,
  stopEvent: 'AfterAgent',
  // Documented quirk: after a tool call that follows the block, the flag is false again.
  stopHookActiveAfterBlock: false,
  carriesBlockReason,
});
