import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseClaudeLine } from './parse-claude-entry.ts';
import { skipClaudeBookkeepingLine } from './skip-claude-bookkeeping-line.ts';
import { CLAUDE_FIXTURES } from './testing/fixtures.ts';

function fixtureFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('skipClaudeBookkeepingLine', () => {
  const lines = fixtureFiles(CLAUDE_FIXTURES).flatMap((file) => readFileSync(file, 'utf8').split('\n').filter(Boolean));

  it('never skips a line the reader uses (checked on every fixture line)', () => {
    expect(lines.length).toBeGreaterThan(900);
    for (const line of lines) {
      if (!skipClaudeBookkeepingLine(line)) continue;
      const parsed = parseClaudeLine(JSON.parse(line));
      // Skipped lines are bookkeeping / sidechain (ignored anyway) or attachments the reader has no use for.
      if (parsed.kind === 'entry') expect(parsed.entry.kind).toBe('chain');
      else expect(parsed.kind).toBe('ignored-claude');
    }
  });

  it('skips the big ones: api-request-*, prompt_snapshot, skill_listing, sidechain entries', () => {
    const skippedBytes = lines.filter(skipClaudeBookkeepingLine).reduce((sum, line) => sum + line.length, 0);
    const totalBytes = lines.reduce((sum, line) => sum + line.length, 0);
    expect(skippedBytes / totalBytes).toBeGreaterThan(0.8);
    for (const marker of ['"type":"api-request-shape"', '"type":"prompt_snapshot"', '"type":"skill_listing"', '"type":"api-request-blob"']) {
      const withMarker = lines.filter((line) => line.startsWith('{') && line.slice(0, 200).includes(marker));
      expect(withMarker.length).toBeGreaterThan(0);
      for (const line of withMarker) expect(skipClaudeBookkeepingLine(line)).toBe(true);
    }
  });

  it('keeps user, assistant, system and queued_command lines', () => {
    for (const line of lines) {
      const entry = JSON.parse(line);
      if (entry.isSidechain === true) continue;
      if (entry.type === 'user' || entry.type === 'assistant' || entry.type === 'system' || entry.attachment?.type === 'queued_command') {
        expect(skipClaudeBookkeepingLine(line)).toBe(false);
      }
    }
  });

  it('cannot be fooled by message text that spells a skipped prefix', () => {
    const sneaky = [
      '{"type":"api-request-shape","x":1}',
      '{"parentUuid":null,"isSidechain":false,"attachment":{"type":"prompt_snapshot"}}',
      '{"parentUuid":"a","isSidechain":true,"x":1}',
    ];
    for (const text of sneaky) {
      const prompt = { parentUuid: null, isSidechain: false, promptId: 'p', type: 'user', message: { role: 'user', content: text }, uuid: 'u' };
      expect(skipClaudeBookkeepingLine(JSON.stringify(prompt))).toBe(false);
      const keyedLikeAttachment = { parentUuid: `x","isSidechain":false,"attachment":{"type":"prompt_snapshot`, isSidechain: false, type: 'user', uuid: 'u' };
      expect(skipClaudeBookkeepingLine(JSON.stringify(keyedLikeAttachment))).toBe(false);
    }
  });
});
