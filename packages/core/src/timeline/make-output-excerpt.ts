import type { OutputExcerpt } from './tool-call.ts';

/** Default budget: 1 KiB of head (what ran) and 3 KiB of tail (where errors print). */
export const DEFAULT_EXCERPT_HEAD = 1024;
export const DEFAULT_EXCERPT_TAIL = 3072;

/**
 * Build an {@link OutputExcerpt} that keeps the first `head` and last `tail` characters of `text`.
 * Cuts never split a surrogate pair.
 */
export function makeOutputExcerpt(
  text: string,
  head: number = DEFAULT_EXCERPT_HEAD,
  tail: number = DEFAULT_EXCERPT_TAIL,
): OutputExcerpt {
  const totalLength = text.length;
  if (totalLength <= head + tail) {
    return { head: text, tail: '', totalLength, truncated: false };
  }
  let headEnd = head;
  if (isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd -= 1;
  let tailStart = totalLength - tail;
  if (isLowSurrogate(text.charCodeAt(tailStart))) tailStart += 1;
  return { head: text.slice(0, headEnd), tail: text.slice(tailStart), totalLength, truncated: true };
}

/** The excerpt as one string, with a marker where text was dropped. */
export function excerptText(excerpt: OutputExcerpt | undefined): string {
  if (!excerpt) return '';
  if (!excerpt.truncated) return excerpt.head + excerpt.tail;
  const dropped = excerpt.totalLength - excerpt.head.length - excerpt.tail.length;
  return `${excerpt.head}\n…[${dropped} characters omitted]…\n${excerpt.tail}`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
