const LINE_HEAD = String.raw`^\{"timestamp":"[^"\\]*",(?:"ordinal":\d+,)?"type":`;

/**
 * Lines the reader never needs, recognised from the first bytes of their raw text so they are not
 * `JSON.parse`d: `world_state` snapshots (several KiB per turn), `compacted` replacement histories,
 * developer/system instruction messages, and `reasoning` items (encrypted content). Codex writes
 * compact JSON with `timestamp`, `ordinal`, `type` first; the patterns are anchored on that structure,
 * so a string *inside* a payload can never match, and a line written in any other layout is simply
 * parsed (never skipped by mistake). `session_meta` is kept although it is large: it carries cwd and
 * CLI version.
 */
const SKIPPABLE = new RegExp(
  LINE_HEAD +
    String.raw`(?:"(?:world_state|compacted)"|"response_item","payload":\{"type":(?:"reasoning"|"message",(?:"status":"[^"\\]*",)?(?:"id":"[^"\\]*",)?"role":"(?:developer|system)"))`,
);

export function skipCodexLine(line: string): boolean {
  return SKIPPABLE.test(line.length > 512 ? line.slice(0, 512) : line);
}
