import type { TokenUsage } from '@agent-checkpoint/core';
import * as z from 'zod/mini';
import { usageOf } from './qwen-usage.ts';

/**
 * One line of a Qwen Code chat recording (`<runtime dir>/projects/<cwd slug>/chats/<session>.jsonl`,
 * observed with 0.24.4), reduced to what the reader uses. Every line is
 * `{uuid, parentUuid, sessionId, timestamp, type, provenance?, subtype?, …}`; `message` holds
 * Gemini-style `parts` (`text`, `functionCall`, `functionResponse`).
 */
export type QwenRecord =
  | {
      readonly kind: 'user';
      readonly uuid: string;
      readonly timestamp?: string;
      readonly text: string;
      /** A prompt the user typed (provenance `real_user`, no subtype), not a runtime or mid-turn injection. */
      readonly prompt: boolean;
    }
  | {
      readonly kind: 'assistant';
      readonly uuid: string;
      readonly timestamp?: string;
      readonly text: string;
      readonly calls: readonly QwenFunctionCall[];
      readonly usage?: TokenUsage;
    }
  | { readonly kind: 'tool-result'; readonly timestamp?: string; readonly results: readonly QwenFunctionResult[] }
  /**
   * A `system` record of subtype `ui_telemetry` naming the prompt it belongs to (`prompt_id`, the id
   * the Stop payload carries: `<session>########<n>`). The user record itself carries none.
   */
  | { readonly kind: 'telemetry'; readonly promptId: string }
  /** A Qwen line of another type (`system` telemetry, attribution snapshots…): counted as Qwen, otherwise ignored. */
  | { readonly kind: 'other' };

/** A call the model made (`functionCall` part). */
export interface QwenFunctionCall {
  readonly id: string;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** A tool's answer (`functionResponse` part), with the CLI's verdict (`toolCallResult`) when recorded. */
export interface QwenFunctionResult {
  readonly id: string;
  /** `toolCallResult.status: "error"` or `response.error` (a subagent's results carry only the latter). */
  readonly failed: boolean;
  /** `resultDisplay.exitCode` of a shell result, else `Exit Code: N` in its text. */
  readonly exitCode?: number;
  readonly output?: string;
}

const Base = z.object({
  uuid: z.string(),
  sessionId: z.string(),
  type: z.string(),
  timestamp: z.optional(z.string()),
  provenance: z.optional(z.string()),
  subtype: z.optional(z.string()),
});
const Parts = z.object({ parts: z.array(z.unknown()) });
const FunctionCall = z.object({ id: z.optional(z.string()), name: z.string(), args: z.optional(z.record(z.string(), z.unknown())) });
const FunctionResponse = z.object({ id: z.optional(z.string()), name: z.optional(z.string()), response: z.optional(z.record(z.string(), z.unknown())) });
const ToolCallResult = z.object({
  callId: z.optional(z.string()),
  status: z.optional(z.string()),
  resultDisplay: z.optional(z.unknown()),
});

/** Parses one already JSON-decoded line. Undefined: not a Qwen record at all (another agent's line, garbage). */
export function parseQwenRecord(raw: unknown): QwenRecord | undefined {
  const base = Base.safeParse(raw);
  if (!base.success) return undefined;
  const record = raw as Record<string, unknown>;
  const { uuid, type, timestamp, provenance, subtype } = base.data;
  const at = timestamp === undefined ? {} : { timestamp };
  const parts = Parts.safeParse(record['message']);
  // Claude Code's lines share the envelope (uuid, sessionId, type): only Gemini-style `parts` or
  // Qwen's `systemPayload` make a line Qwen's.
  if (!parts.success && !(type === 'system' && isRecord(record['systemPayload']))) return undefined;
  switch (type) {
    case 'user':
      if (!parts.success) return { kind: 'other' };
      return { kind: 'user', uuid, ...at, text: textOf(parts.data.parts), prompt: (provenance === undefined || provenance === 'real_user') && subtype === undefined };
    case 'assistant': {
      if (!parts.success) return { kind: 'other' };
      const usage = usageOf(record, timestamp);
      return { kind: 'assistant', uuid, ...at, text: textOf(parts.data.parts), calls: callsOf(parts.data.parts), ...(usage === undefined ? {} : { usage }) };
    }
    case 'tool_result':
      if (!parts.success) return { kind: 'other' };
      return { kind: 'tool-result', ...at, results: resultsOf(parts.data.parts, record['toolCallResult']) };
    case 'system': {
      const promptId = subtype === 'ui_telemetry' ? promptIdOf(record['systemPayload']) : undefined;
      return promptId === undefined ? { kind: 'other' } : { kind: 'telemetry', promptId };
    }
    default:
      return { kind: 'other' };
  }
}

function promptIdOf(payload: unknown): string | undefined {
  const event = isRecord(payload) ? payload['uiEvent'] : undefined;
  const id = isRecord(event) ? event['prompt_id'] : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

function textOf(parts: readonly unknown[]): string {
  return parts
    .map((part) => (isRecord(part) && typeof part['text'] === 'string' && part['thought'] !== true ? part['text'] : ''))
    .filter((text) => text !== '')
    .join('\n');
}

function callsOf(parts: readonly unknown[]): QwenFunctionCall[] {
  return parts.flatMap((part, index): QwenFunctionCall[] => {
    const call = FunctionCall.safeParse(isRecord(part) ? part['functionCall'] : undefined);
    if (!call.success) return [];
    // A call without an id (never seen in 0.24.4) still counts; it cannot be paired with a result.
    return [{ id: call.data.id ?? `qwen-call-without-id-${index}`, name: call.data.name, args: call.data.args ?? {} }];
  });
}

function resultsOf(parts: readonly unknown[], toolCallResult: unknown): QwenFunctionResult[] {
  const verdict = ToolCallResult.safeParse(toolCallResult);
  return parts.flatMap((part): QwenFunctionResult[] => {
    const response = FunctionResponse.safeParse(isRecord(part) ? part['functionResponse'] : undefined);
    if (!response.success || response.data.id === undefined) return [];
    const id = response.data.id;
    const body = response.data.response ?? {};
    const error = body['error'];
    const text = typeof body['output'] === 'string' ? body['output'] : typeof error === 'string' ? error : undefined;
    // `toolCallResult` describes the record's one result; it applies when it names this call.
    const own = verdict.success && (verdict.data.callId === undefined || verdict.data.callId === id) ? verdict.data : undefined;
    const displayExit = isRecord(own?.resultDisplay) ? own.resultDisplay['exitCode'] : undefined;
    const exitCode = typeof displayExit === 'number' && Number.isInteger(displayExit) ? displayExit : exitCodeInText(text);
    return [
      {
        id,
        failed: own?.status === 'error' || error !== undefined,
        ...(exitCode !== undefined ? { exitCode } : {}),
        ...(text !== undefined ? { output: text } : {}),
      },
    ];
  });
}

const EXIT_CODE = /^Exit Code: (-?\d+)$/m;

/** `Exit Code: N` of a shell result's text (the form the model sees). */
function exitCodeInText(text: string | undefined): number | undefined {
  const match = text === undefined ? null : EXIT_CODE.exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
