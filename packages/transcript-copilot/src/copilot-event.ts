import type { TokenUsage } from '@agent-checkpoint/core';
import * as z from 'zod/mini';
import { copilotUsageOf } from './copilot-usage.ts';

/**
 * One line of a GitHub Copilot CLI session log (`~/.copilot/session-state/<id>/events.jsonl`,
 * observed with 1.0.102), reduced to what the reader uses. Every line is
 * `{type, data, id, timestamp, parentId}` with a dotted `type`; events of a `task` subagent sit in
 * the same file and carry `data.parentToolCallId` (the parent's `task` call), except the
 * subagent's prompt, which carries `data.source: "agent-<parent session id>"` instead.
 */
export type CopilotEvent =
  | { readonly kind: 'user'; readonly id: string; readonly timestamp?: string; readonly text: string; readonly subagent: boolean }
  | {
      readonly kind: 'assistant';
      readonly timestamp?: string;
      readonly text: string;
      readonly toolRequests: readonly CopilotToolRequest[];
      readonly parentToolCallId?: string;
    }
  | {
      readonly kind: 'tool-complete';
      readonly toolCallId: string;
      readonly timestamp?: string;
      readonly success: boolean;
      /** `shellExecution.exitCode`: a failing command still has `success: true`. */
      readonly exitCode?: number;
      readonly output?: string;
    }
  | { readonly kind: 'subagent-started'; readonly toolCallId: string; readonly agentType?: string }
  | { readonly kind: 'usage'; readonly usage: TokenUsage; readonly subagent: boolean }
  /** Any other Copilot event (turn marks, hooks, system prompt…): counted as Copilot, otherwise ignored. */
  | { readonly kind: 'other' };

/** A call the model made, as `assistant.message.toolRequests[]` records it. */
export interface CopilotToolRequest {
  readonly toolCallId: string;
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

const Envelope = z.object({ type: z.string().check(z.regex(/^[a-z_]+(?:\.[a-z_]+)+$/)), data: z.record(z.string(), z.unknown()), timestamp: z.optional(z.string()), id: z.optional(z.string()) });
const UserData = z.object({ content: z.string(), messageId: z.optional(z.string()), source: z.optional(z.string()), parentToolCallId: z.optional(z.string()) });
const ToolRequest = z.object({ toolCallId: z.string(), name: z.string(), arguments: z.optional(z.unknown()) });
const AssistantData = z.object({ content: z.optional(z.string()), toolRequests: z.optional(z.array(z.unknown())), parentToolCallId: z.optional(z.string()) });
const CompleteData = z.object({
  toolCallId: z.string(),
  success: z.optional(z.boolean()),
  shellExecution: z.optional(z.object({ exitCode: z.optional(z.number()) })),
  result: z.optional(z.object({ content: z.optional(z.string()) })),
  error: z.optional(z.object({ message: z.optional(z.string()) })),
});
const SubagentStartedData = z.object({ toolCallId: z.string(), agentType: z.optional(z.string()) });

/** Parses one already JSON-decoded line. Undefined: not a Copilot event at all (another agent's line, garbage). */
export function parseCopilotEvent(raw: unknown): CopilotEvent | undefined {
  const envelope = Envelope.safeParse(raw);
  if (!envelope.success) return undefined;
  const { type, data, timestamp, id } = envelope.data;
  const at = timestamp === undefined ? {} : { timestamp };
  switch (type) {
    case 'user.message': {
      const user = UserData.safeParse(data);
      if (!user.success) return { kind: 'other' };
      const subagent = user.data.parentToolCallId !== undefined || (user.data.source ?? '').startsWith('agent-');
      return { kind: 'user', id: user.data.messageId ?? id ?? '', ...at, text: user.data.content, subagent };
    }
    case 'assistant.message': {
      const message = AssistantData.safeParse(data);
      if (!message.success) return { kind: 'other' };
      const toolRequests = (message.data.toolRequests ?? []).flatMap((request): CopilotToolRequest[] => {
        const parsed = ToolRequest.safeParse(request);
        if (!parsed.success) return [];
        const args = parsed.data.arguments;
        // A freeform tool (`apply_patch`) records its input as a string.
        return [{ toolCallId: parsed.data.toolCallId, name: parsed.data.name, arguments: isRecord(args) ? args : typeof args === 'string' ? { input: args } : {} }];
      });
      const parent = message.data.parentToolCallId;
      return { kind: 'assistant', ...at, text: message.data.content ?? '', toolRequests, ...(parent === undefined ? {} : { parentToolCallId: parent }) };
    }
    case 'tool.execution_complete': {
      const complete = CompleteData.safeParse(data);
      if (!complete.success) return { kind: 'other' };
      const { toolCallId, success, shellExecution, result, error } = complete.data;
      const exitCode = shellExecution?.exitCode;
      const output = error?.message ?? result?.content;
      return {
        kind: 'tool-complete',
        toolCallId,
        ...at,
        success: success !== false,
        ...(exitCode === undefined ? {} : { exitCode }),
        ...(output === undefined ? {} : { output }),
      };
    }
    case 'subagent.started': {
      const started = SubagentStartedData.safeParse(data);
      if (!started.success) return { kind: 'other' };
      return { kind: 'subagent-started', toolCallId: started.data.toolCallId, ...(started.data.agentType === undefined ? {} : { agentType: started.data.agentType }) };
    }
    case 'session.usage_record': {
      const record = copilotUsageOf(data, timestamp);
      return record === undefined ? { kind: 'other' } : { kind: 'usage', ...record };
    }
    default:
      return { kind: 'other' };
  }
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
