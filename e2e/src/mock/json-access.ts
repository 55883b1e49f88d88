/**
 * Tolerant accessors for request bodies sent by the CLIs. The mock must never throw on a shape it
 * did not expect (a CLI update may add fields anywhere), so it reads only what it needs and treats
 * everything else as absent.
 */

export type JsonRecord = Readonly<Record<string, unknown>>;

export function asRecord(value: unknown): JsonRecord | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonRecord) : undefined;
}

export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `record[key]` as a string, or undefined. */
export function stringField(value: unknown, key: string): string | undefined {
  return asString(asRecord(value)?.[key]);
}

/** Decodes the five XML entities Codex escapes in `<hook_prompt>` (&amp; last, as required). */
export function xmlUnescape(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&');
}
