import type { ModelReply } from './scenario.ts';
import { toClaudeCalls, toPiCalls } from './native-tool-calls.ts';
import { callId, itemId, type ReplyIds } from './reply-ids.ts';
import { splitForStreaming, type SseEvent } from './sse.ts';

type Block =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: Readonly<Record<string, unknown>> };

export interface AnthropicReply {
  /** Streaming form: message_start, content blocks with deltas, message_delta, message_stop. */
  readonly events: readonly SseEvent[];
  /** Non-streaming form (`stream:false`), the same message as one JSON object. */
  readonly message: Readonly<Record<string, unknown>>;
}

/** Encodes a reply as an Anthropic Messages API response. */
export function encodeAnthropicReply(reply: ModelReply, options: { model: string; ids: ReplyIds; workspaceRoot: string; contextTokens?: number; pi?: boolean }): AnthropicReply {
  const blocks: Block[] = [];
  const text = reply.text;
  if (text !== undefined && text !== '') blocks.push({ type: 'text', text });
  if (reply.kind === 'tools') {
    (options.pi === true ? toPiCalls(reply.calls) : toClaudeCalls(reply.calls, options.workspaceRoot)).forEach((call, i) => {
      blocks.push({ type: 'tool_use', id: callId('toolu', options.ids, i), name: call.name, input: call.input });
    });
  }
  const stopReason = reply.kind === 'tools' ? 'tool_use' : 'end_turn';
  const id = itemId('msg', options.ids);
  // A reply's own `inputTokens` (loop/resume scenarios) wins; else the scenario's `contextTokens` fill the window through cache reads.
  const usage = { input_tokens: reply.inputTokens ?? 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: reply.inputTokens === undefined ? Math.max(0, (options.contextTokens ?? 100) - 100) : 0 };
  const events: SseEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: { id, type: 'message', role: 'assistant', model: options.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
      },
    },
  ];
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } } });
      for (const chunk of splitForStreaming(block.text)) {
        events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: chunk } } });
      }
    } else {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } },
      });
      events.push({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } },
      });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push(
    { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 10 } } },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  const message = { id, type: 'message', role: 'assistant', model: options.model, content: blocks, stop_reason: stopReason, stop_sequence: null, usage };
  return { events, message };
}
