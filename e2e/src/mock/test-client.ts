/** Test helpers: talk to the mock the way the CLIs do, and decode its SSE answers. */

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

export interface DecodedEvent {
  readonly event: string | undefined;
  readonly data: unknown;
}

/** Parses an SSE body (LF or CRLF framing) into events. */
export function decodeSse(text: string): DecodedEvent[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      let event: string | undefined;
      let data = '';
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith('event: ')) event = line.slice(7);
        if (line.startsWith('data: ')) data += line.slice(6);
      }
      return { event, data: JSON.parse(data) as unknown };
    });
}
