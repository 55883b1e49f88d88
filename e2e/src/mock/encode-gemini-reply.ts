import type { ModelReply } from './scenario.ts';
import { toGeminiCalls } from './native-tool-calls.ts';
import { callId, type ReplyIds } from './reply-ids.ts';
import { splitForStreaming } from './sse.ts';

type Part =
  | { readonly text: string }
  | { readonly functionCall: { readonly id: string; readonly name: string; readonly args: Readonly<Record<string, unknown>> } };

const USAGE = { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 };
const usageOf = (inputTokens: number | undefined) => (inputTokens === undefined ? USAGE : { promptTokenCount: inputTokens, candidatesTokenCount: 10, totalTokenCount: inputTokens + 10 });

/**
 * Encodes a reply as the chunks of `streamGenerateContent?alt=sse`. Text streams in two chunks;
 * the last chunk carries `finishReason` (without it the CLI reports "Model stream ended without a
 * finish reason") and the usage.
 */
export function encodeGeminiReply(reply: ModelReply, options: { model: string; ids: ReplyIds; contextTokens?: number }): unknown[] {
  const usage = options.contextTokens === undefined ? USAGE : { ...USAGE, promptTokenCount: options.contextTokens, totalTokenCount: options.contextTokens + USAGE.candidatesTokenCount };
  const chunks: Part[][] = [];
  if (reply.kind === 'text') {
    for (const piece of splitForStreaming(reply.text)) chunks.push([{ text: piece }]);
  } else {
    const parts: Part[] = [];
    if (reply.text !== undefined && reply.text !== '') parts.push({ text: reply.text });
    toGeminiCalls(reply.calls).forEach((call, i) => {
      parts.push({ functionCall: { id: callId('call', options.ids, i), name: call.name, args: call.input } });
    });
    chunks.push(parts);
  }
  return chunks.map((parts, i) => {
    const last = i === chunks.length - 1;
    return {
      candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
      ...(last ? { usageMetadata: reply.inputTokens === undefined ? usage : usageOf(reply.inputTokens) } : {}),
      modelVersion: options.model,
    };
  });
}

/** A non-streaming `generateContent` answer holding one text part. */
export function geminiTextResponse(text: string, model: string): unknown {
  return {
    candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: USAGE,
    modelVersion: model,
  };
}
