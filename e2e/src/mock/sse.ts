import type { ServerResponse } from 'node:http';

/** One server-sent event; `event` is omitted for Gemini, which uses bare `data:` lines. */
export interface SseEvent {
  readonly event?: string;
  readonly data: unknown;
}

/** Writes events and ends the response. Gemini's API frames events with CRLF, the others LF. */
export function writeSse(res: ServerResponse, events: readonly SseEvent[], options: { crlf?: boolean; doneMarker?: boolean } = {}): void {
  const nl = options.crlf === true ? '\r\n' : '\n';
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const e of events) {
    const head = e.event === undefined ? '' : `event: ${e.event}${nl}`;
    res.write(`${head}data: ${JSON.stringify(e.data)}${nl}${nl}`);
  }
  // OpenAI chat-completions streams end with a literal `data: [DONE]`.
  if (options.doneMarker === true) res.write(`data: [DONE]${nl}${nl}`);
  res.end();
}

/** Splits text in two near the middle (at a space if possible) so answers stream as 2 chunks. */
export function splitForStreaming(text: string): string[] {
  if (text.length < 12) return [text];
  const middle = Math.floor(text.length / 2);
  const space = text.indexOf(' ', middle);
  const at = space > 0 && space < text.length - 1 ? space + 1 : middle;
  return [text.slice(0, at), text.slice(at)];
}
