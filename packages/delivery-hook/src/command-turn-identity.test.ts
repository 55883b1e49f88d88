import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryFixture, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { createClaudeTranscriptReader } from '@agent-checkpoint/transcript-claude';
import { afterEach, describe, expect, it } from 'vitest';
import { deliverThroughHook } from './test-support/hook-route-adapter.ts';
import { FIXTURES_DIR } from './test-support/recorded-payloads.ts';
import { createHookSandbox, type HookSandbox } from './test-support/hook-sandbox.ts';

// Issue 11: Claude reuses the previous prompt id for a slash-command or skill turn. Its turn identity
// must not be the previous turn's, which already got its checkpoint: the loop guard would let the
// command turn pass unchecked. The real two-turn recording (Claude Code 2.1.330,
// fixtures/claude/2.1.330/recorded/second-turn.jsonl) with its second prompt replaced by the echo Claude
// writes for a command, carrying the first turn's prompt id (as in transcript-claude's
// read-claude-turn.command-turn.test.ts); both turns leave the category's file changed.

const FIRST = '7a07330c-a72e-4c73-9cd4-8d5ffacfbfea';
const SECOND = '4c884776-d0f2-44c2-ad57-38571f56a113';
const COMMAND = '<command-message>greet is running…</command-message>\n<command-name>/greet</command-name>\n<command-args>add a farewell</command-args>';
const SESSION = 'c0ffee00-0000-4000-8000-00000000c0de';

type Entry = Record<string, unknown> & { message?: { content?: unknown } };

/** The recording with its second prompt turned into a command turn that reuses the first prompt id; and the line where it starts. */
function commandRecording(): { readonly lines: readonly string[]; readonly commandLine: number } {
  const out: string[] = [];
  let commandLine = -1;
  for (const line of readFileSync(join(FIXTURES_DIR, 'claude/2.1.330/recorded/second-turn.jsonl'), 'utf8').split('\n')) {
    if (line === '') continue;
    const entry = JSON.parse(line) as Entry;
    if (entry['promptId'] === SECOND && entry.message?.content === 'Add a farewell line to it.') {
      const { promptSource: _s, turnOrigin: _o, turnPosition: _p, ...rest } = entry;
      commandLine = out.length;
      out.push(JSON.stringify({ ...rest, promptId: FIRST, message: { role: 'user', content: COMMAND } }));
      out.push(JSON.stringify({ ...rest, promptId: FIRST, isMeta: true, uuid: `${String(rest['uuid'])}-meta`, message: { role: 'user', content: [{ type: 'text', text: 'Add a farewell line to greeting.txt.' }] } }));
      continue;
    }
    out.push(entry['promptId'] === SECOND ? JSON.stringify({ ...entry, promptId: FIRST }) : line);
  }
  expect(commandLine, 'fixture precondition: the second prompt is in the recording').toBeGreaterThan(0);
  return { lines: out, commandLine };
}

let world: DeliveryWorld | undefined;
let sandbox: HookSandbox | undefined;
afterEach(() => {
  world?.remove();
  sandbox?.remove();
  world = undefined;
  sandbox = undefined;
});

describe('Claude: a command turn that reuses the previous prompt id', () => {
  it('two turns, the second a command turn with the first turn’s prompt id, both actionable: both blocked', async () => {
    const { lines, commandLine } = commandRecording();
    sandbox = createHookSandbox('ac-command-turn-');
    const recording = join(sandbox.root, 'command-turn.jsonl');
    writeFileSync(recording, `${lines.join('\n')}\n`);
    const fixture: DeliveryFixture = {
      agent: 'claude',
      reader: createClaudeTranscriptReader(),
      transcriptFile: recording,
      recordedCwd: '/WORK/repo',
      changedFiles: { 'greeting.txt': { before: 'Hello!\n', after: 'Hello!\nGoodbye!\n' } },
      sessionId: SESSION,
      hint: { turnId: FIRST },
      allClear: { transcriptFile: recording, sessionId: SESSION, hint: { turnId: FIRST }, evidence: [] },
    };
    world = createDeliveryWorld(fixture);
    const scenario = world.scenario('actionable');
    const full = readFileSync(scenario.transcriptPath, 'utf8');
    const fullLines = full.split('\n');

    // Turn 1, as the transcript stood at its Stop (nothing of the command turn written yet).
    writeFileSync(scenario.transcriptPath, `${fullLines.slice(0, commandLine).join('\n')}\n`);
    const first = await world.expected(scenario);
    expect(first).toMatchObject({ mode: 'actionable', timeline: { turnId: FIRST, prompt: 'Show me the greeting.' } });
    expect(await deliverThroughHook(scenario)).toBe(first.message);

    // Turn 2: the command turn, same prompt id in the Stop payload.
    writeFileSync(scenario.transcriptPath, full);
    const second = await world.expected(scenario);
    expect(second).toMatchObject({ mode: 'actionable', timeline: { prompt: '/greet add a farewell' } });
    expect(second.timeline?.turnId).toMatch(new RegExp(`^${FIRST}#.+`));
    expect(await deliverThroughHook(scenario)).toBe(second.message);

    // A repeat stop of the command turn (no stop_hook_active) is its second stop: the guard holds.
    expect(await deliverThroughHook(world.scenario('repeat-stop'))).toBeNull();
  });
});
