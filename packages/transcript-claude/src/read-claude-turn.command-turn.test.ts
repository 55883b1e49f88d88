/**
 * Issue 11: a slash command or skill the user invokes opens a turn of its own, even when Claude
 * reuses the previous prompt id for it. Built from the real two-turn recording
 * (fixtures/claude/2.1.330/recorded/second-turn.jsonl): its second prompt is replaced by the echo
 * Claude writes for a command (`<command-message>` / `<command-name>` / `<command-args>`, no
 * `promptSource`) plus the isMeta expansion, and the second turn carries the first turn's prompt id.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readClaudeTurn } from './read-claude-turn.ts';
import { fixture, makeTempDir, PROBE_PREFIX, summarize } from './testing/fixtures.ts';

const FIRST = '7a07330c-a72e-4c73-9cd4-8d5ffacfbfea';
const SECOND = '4c884776-d0f2-44c2-ad57-38571f56a113';
const COMMAND = '<command-message>greet is running…</command-message>\n<command-name>/greet</command-name>\n<command-args>add a farewell</command-args>';

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir();
});
afterEach(() => temp.cleanup());

type Entry = Record<string, unknown> & { message?: { content?: unknown } };

function commandTranscript(options: { local?: boolean } = {}): string {
  const out: string[] = [];
  for (const line of readFileSync(fixture('recorded/second-turn.jsonl'), 'utf8').split('\n')) {
    if (line === '') continue;
    const entry = JSON.parse(line) as Entry;
    if (entry['promptId'] === SECOND && entry.message?.content === 'Add a farewell line to it.') {
      const { promptSource: _s, turnOrigin: _o, turnPosition: _p, ...rest } = entry;
      out.push(JSON.stringify({ ...rest, promptId: FIRST, message: { role: 'user', content: options.local ? '<command-name>/model</command-name>\n<command-args></command-args>' : COMMAND } }));
      if (options.local) {
        // A local command: its output is echoed and the model does not run (the rest of turn 2 is dropped).
        out.push(JSON.stringify({ ...rest, promptId: FIRST, uuid: `${String(rest['uuid'])}-stdout`, message: { role: 'user', content: '<local-command-stdout>Set model to opus</local-command-stdout>' } }));
        break;
      }
      out.push(JSON.stringify({ ...rest, promptId: FIRST, isMeta: true, uuid: `${String(rest['uuid'])}-meta`, message: { role: 'user', content: [{ type: 'text', text: 'Add a farewell line to greeting.txt.' }] } }));
      continue;
    }
    out.push(entry['promptId'] === SECOND ? JSON.stringify({ ...entry, promptId: FIRST }) : line);
  }
  const path = join(temp.dir, 'transcript.jsonl');
  writeFileSync(path, `${out.join('\n')}\n`);
  return path;
}

/** When the recorded second prompt (now the command) was written. */
function secondPromptTime(): string {
  const line = readFileSync(fixture('recorded/second-turn.jsonl'), 'utf8')
    .split('\n')
    .find((text) => text.includes(`"promptId":"${SECOND}"`) && text.includes('"content":"Add a farewell line to it."'));
  return String((JSON.parse(line ?? '{}') as Entry)['timestamp']);
}

const read = (path: string, turnId?: string) =>
  readClaudeTurn({ transcriptPath: path, checkpointPrefix: PROBE_PREFIX, flushWaitMs: 0, ...(turnId ? { hint: { turnId } } : {}) });

describe('a slash command or skill opens its own turn', () => {
  it.each([
    ['with the reused prompt id as hint', FIRST],
    ['without a hint', undefined],
  ])('%s: only the command turn’s calls, the command as prompt', async (_label, turnId) => {
    const timeline = await read(commandTranscript(), turnId);
    expect(timeline.calls.map(summarize)).toEqual([{ kind: 'edit', rawName: 'Edit', outcome: 'success', paths: ['/WORK/repo/greeting.txt'] }]);
    expect(timeline).toMatchObject({ hasData: true, truncated: false, prompt: '/greet add a farewell', startedAt: secondPromptTime() });
  });

  it('a local command (its output echoed, no model answer) does not open a turn', async () => {
    const timeline = await read(commandTranscript({ local: true }), FIRST);
    expect(timeline.prompt).toBe('Show me the greeting.');
    expect(timeline.calls.map((call) => call.rawName)).toEqual(['Read']);
  });

  it('the command turn has its own identity: the reused prompt id refined by the uuid of the echo', async () => {
    const path = commandTranscript();
    const echo = readFileSync(path, 'utf8')
      .split('\n')
      .map((line) => (line === '' ? {} : (JSON.parse(line) as Entry)))
      .find((entry) => typeof entry.message?.content === 'string' && entry.message.content.startsWith('<command-message>'));
    const commandTurn = await read(path, FIRST);
    expect(commandTurn.turnId).toBe(`${FIRST}#${String(echo?.['uuid'])}`);
    expect((await read(path)).turnId).toBe(commandTurn.turnId);
    // The genuine first turn keeps the bare prompt id.
    const firstTurn = await read(fixture('recorded/second-turn.jsonl'), FIRST);
    expect(firstTurn.turnId).toBe(FIRST);
    // A local command does not open a turn: the turn (and its id) stays the genuine one.
    expect((await read(commandTranscript({ local: true }), FIRST)).turnId).toBe(FIRST);
  });
});
