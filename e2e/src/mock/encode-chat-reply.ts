import type { ModelReply } from './scenario.ts';
import type { NamedCall } from './native-tool-calls.ts';
import { callId, itemId, type ReplyIds } from './reply-ids.ts';
import { splitForStreaming, type SseEvent } from './sse.ts';

/**
 * Encodes a reply as OpenAI chat-completions: the streamed `chat.completion.chunk`s (text deltas,
 * one chunk per tool call, the finish reason, then usage when asked), or the whole `chat.completion`.
 * Tool call ids carry the step marker like the other encoders' ids (reply-ids.ts).
 */
export function encodeChatReply(
  reply: ModelReply,
  options: { model: string; ids: ReplyIds; workspaceRoot: string; toCalls: (calls: Extract<ModelReply, { kind: 'tools' }>['calls'], root: string) => NamedCall[] },
): { chunks: SseEvent[]; completion: Record<string, unknown> } {
  const id = itemId('chatcmpl', options.ids);
  const created = Math.floor(Date.now() / 1000);
  const text = reply.text ?? '';
  const calls =
    reply.kind === 'tools'
      ? options.toCalls(reply.calls, options.workspaceRoot).map((call, i) => ({ id: callId('call', options.ids, i), type: 'function', function: { name: call.name, arguments: JSON.stringify(call.input) } }))
      : [];
  const finish = calls.length > 0 ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: reply.inputTokens ?? 100, completion_tokens: 10, total_tokens: (reply.inputTokens ?? 100) + 10 };
  const base = { id, object: 'chat.completion.chunk', created, model: options.model };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): SseEvent => ({
    data: { ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] },
  });
  const chunks: SseEvent[] = [chunk({ role: 'assistant', content: '' })];
  for (const delta of text === '' ? [] : splitForStreaming(text)) chunks.push(chunk({ content: delta }));
  calls.forEach((call, index) => chunks.push(chunk({ tool_calls: [{ index, ...call }] })));
  chunks.push(chunk({}, finish));
  chunks.push({ data: { ...base, choices: [], usage } });
  const message = { role: 'assistant', content: text === '' ? null : text, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
  const completion = { id, object: 'chat.completion', created, model: options.model, choices: [{ index: 0, message, finish_reason: finish }], usage };
  return { chunks, completion };
}
