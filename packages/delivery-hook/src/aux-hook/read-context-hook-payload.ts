import type { ContextHookEvent, ContextPayloadRead, ContextPayloadReader, PayloadHome } from '../agents/context-payload.ts';
import { readSnakeCaseContextPayload } from '../agents/snake-case-context-payload.ts';
import { parseJsonPayload } from './run-aux-hook.ts';

export type { ContextHookEvent };

/**
 * Parse and validate a context hook payload with the agent profile's reader (`readContextPayload`),
 * or the snake_case one most agents share. Never throws.
 */
export function readContextHookPayload(text: string, reader: ContextPayloadReader | undefined, where: PayloadHome): ContextPayloadRead {
  const parsed = parseJsonPayload(text);
  if ('error' in parsed) return parsed;
  return reader === undefined ? readSnakeCaseContextPayload(parsed.json) : reader(parsed.json, where);
}
