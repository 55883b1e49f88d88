import type { ModelReply } from './scenario.ts';
import { toCodexCalls } from './native-tool-calls.ts';
import { callId, itemId, type ReplyIds } from './reply-ids.ts';
import { splitForStreaming, type SseEvent } from './sse.ts';

/**
 * Encodes a reply as an OpenAI Responses API event stream (what Codex's `wire_api = "responses"`
 * reads): response.created, per item output_item.added / (text deltas) / output_item.done, then
 * response.completed with usage. Event names equal `data.type`.
 */
export function encodeResponsesReply(reply: ModelReply, options: { model: string; ids: ReplyIds; messageIdPrefix?: string }): SseEvent[] {
  const items: Record<string, unknown>[] = [];
  const text = reply.text;
  if (text !== undefined && text !== '') {
    const id = options.messageIdPrefix === undefined ? itemId('msg', options.ids) : `${options.messageIdPrefix}_r${options.ids.request}`;
    items.push({ type: 'message', id, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] });
  }
  if (reply.kind === 'tools') {
    toCodexCalls(reply.calls).forEach((call, i) => {
      const id = callId('call', options.ids, i);
      items.push(
        call.type === 'function_call'
          ? {
              type: 'function_call',
              id: `fc${id.slice(4)}`,
              status: 'completed',
              name: call.name,
              ...(call.namespace !== undefined ? { namespace: call.namespace } : {}),
              call_id: id,
              arguments: call.arguments,
            }
          : { type: 'custom_tool_call', id: `ctc${id.slice(4)}`, status: 'completed', name: call.name, call_id: id, input: call.input },
      );
    });
  }

  const responseId = itemId('resp', options.ids);
  const base = { id: responseId, object: 'response', created_at: Math.floor(Date.now() / 1000), model: options.model };
  let seq = 0;
  const ev = (data: Record<string, unknown>): SseEvent => ({ event: String(data['type']), data: { ...data, sequence_number: seq++ } });
  const events: SseEvent[] = [ev({ type: 'response.created', response: { ...base, status: 'in_progress', output: [] } })];
  items.forEach((item, outputIndex) => {
    if (item['type'] === 'message') {
      const itemIdValue = item['id'];
      events.push(ev({ type: 'response.output_item.added', output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } }));
      events.push(
        ev({ type: 'response.content_part.added', item_id: itemIdValue, output_index: outputIndex, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
      );
      for (const delta of splitForStreaming(text ?? '')) {
        events.push(ev({ type: 'response.output_text.delta', item_id: itemIdValue, output_index: outputIndex, content_index: 0, delta }));
      }
      events.push(ev({ type: 'response.output_text.done', item_id: itemIdValue, output_index: outputIndex, content_index: 0, text }));
      events.push(
        ev({ type: 'response.content_part.done', item_id: itemIdValue, output_index: outputIndex, content_index: 0, part: { type: 'output_text', text, annotations: [] } }),
      );
    } else {
      events.push(ev({ type: 'response.output_item.added', output_index: outputIndex, item: { ...item, status: 'in_progress' } }));
    }
    events.push(ev({ type: 'response.output_item.done', output_index: outputIndex, item }));
  });
  const usage = {
    input_tokens: reply.inputTokens ?? 100,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 10,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: (reply.inputTokens ?? 100) + 10,
  };
  events.push(ev({ type: 'response.completed', response: { ...base, status: 'completed', output: items, usage } }));
  return events;
}
