import type { AgentId } from '@agent-checkpoint/core/hot-path';
import type { ContextPayloadReader } from './context-payload.ts';
import { readCopilotContextPayload } from './copilot-context-payload.ts';
import { readPiContextPayload } from './pi-context-payload.ts';

/**
 * The monitor's payload reader of each agent whose post-tool payload is not the snake_case one
 * (`post-tool/post-tool-payload.ts` reads those by hand). The same functions as the profiles'
 * `readContextPayload` (profiles.test.ts holds the two together), listed here because the monitor's
 * lean bundle must not load the profiles (zod).
 */
export const POST_TOOL_PAYLOAD_READERS: Readonly<Partial<Record<AgentId, ContextPayloadReader>>> = {
  copilot: readCopilotContextPayload,
  pi: readPiContextPayload,
};
