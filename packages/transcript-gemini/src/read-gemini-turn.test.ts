import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PREFIX, PROMPT, callSummary, fixture, fixtureRecords, makeTempDir, read, toJsonl } from './gemini-test-support.ts';
import { SNIFF_BYTES } from './sniff-gemini-file.ts';

const HEADLESS = 'session-headless-deny-tools.jsonl';
const SNAPSHOT = 'session-headless-deny-tools.snapshot-at-first-AfterAgent.jsonl';
const INTERACTIVE = 'session-interactive-tmux.jsonl';

/** The calls of the headless run before the block, in order. */
const FIRST_PASS = [
  { kind: 'shell', rawName: 'run_shell_command', outcome: 'error', command: 'echo about-to-fail; exit 1', exitCode: 1, paths: [] },
  { kind: 'shell', rawName: 'run_shell_command', outcome: 'success', command: 'echo hello-ok', exitCode: 0, paths: [] },
  { kind: 'write', rawName: 'write_file', outcome: 'success', paths: ['notes.txt'] },
  { kind: 'edit', rawName: 'replace', outcome: 'success', paths: ['notes.txt'] },
  { kind: 'read', rawName: 'read_file', outcome: 'success', paths: ['notes.txt'] },
  { kind: 'read', rawName: 'read_file', outcome: 'error', paths: ['missing.txt'] },
];
const AFTER_BLOCK = { kind: 'shell', rawName: 'run_shell_command', outcome: 'success', command: 'echo tests-ok', exitCode: 0, paths: [] };

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir();
});
afterEach(() => {
  temp.cleanup();
});

describe('headless run with a deny (real 0.61 recording)', () => {
  it('finds the turn from hint.prompt; the block reason is not a boundary; calls after it belong to the turn', () => {
    const timeline = read(fixture(HEADLESS), { hint: { prompt: PROMPT } });
    expect(timeline).toMatchObject({
      agent: 'gemini',
      hasData: true,
      truncated: false,
      prompt: PROMPT,
      startedAt: '2026-11-22T02:17:11.638Z',
      checkpointsDelivered: 1,
      lastUserMessage: 'CHECKPOINT-PROBE: run the tests',
      lastAssistantMessage: 'Checkpoint handled: tests pass.',
      diagnostics: [],
    });
    expect(callSummary(timeline)).toEqual([...FIRST_PASS, AFTER_BLOCK]);
    expect(timeline.turnId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('works with the real AfterAgent payload of the second stop (prompt unchanged after the block)', () => {
    const payload = JSON.parse(readFileSync(fixture('hook-payloads/hook-input-AfterAgent-2nd-after-deny-with-tool-calls.json'), 'utf8')) as { prompt: string; session_id: string };
    expect(payload.prompt).toBe(PROMPT);
    const timeline = read(fixture(HEADLESS), { hint: { prompt: payload.prompt } });
    expect(callSummary(timeline)).toEqual([...FIRST_PASS, AFTER_BLOCK]);
    // The BeforeAgent payload of the continuation carries the reason as prompt: it is not used as a hint.
    const before = JSON.parse(readFileSync(fixture('hook-payloads/hook-input-BeforeAgent-after-deny.json'), 'utf8')) as { prompt: string };
    expect(read(fixture(HEADLESS), { hint: { prompt: before.prompt } }).turnId).toBe(timeline.turnId);
  });

  it('keeps the parallel read_file calls of one message as two calls with their own outcomes', () => {
    const reads = read(fixture(HEADLESS), { hint: { prompt: PROMPT } }).calls.filter((c) => c.rawName === 'read_file');
    expect(reads.map((c) => [c.id, c.outcome])).toEqual([
      ['read_file__read_file_1795313831998_0', 'success'],
      ['read_file__read_file_1795313832007_1', 'error'],
    ]);
    expect(reads[0]?.timestamp).toBe(reads[1]?.timestamp);
  });

  it('without a hint, the prefix alone keeps the reason from being a boundary', () => {
    const timeline = read(fixture(HEADLESS));
    expect(callSummary(timeline)).toEqual([...FIRST_PASS, AFTER_BLOCK]);
    expect(timeline.prompt).toBe(PROMPT);
    expect(timeline.checkpointsDelivered).toBe(1);
  });

  it('without hint and without our prefix, the reason would be a boundary (why the prefix matters)', () => {
    const timeline = read(fixture(HEADLESS), { checkpointPrefix: 'agent-checkpoint:' });
    expect(timeline.prompt).toBe('CHECKPOINT-PROBE: run the tests');
    expect(callSummary(timeline)).toEqual([AFTER_BLOCK]);
    expect(timeline.checkpointsDelivered).toBe(0);
  });

  it('with the hint, the boundary holds even when the prefix is not ours', () => {
    const timeline = read(fixture(HEADLESS), { checkpointPrefix: 'agent-checkpoint:', hint: { prompt: PROMPT } });
    expect(callSummary(timeline)).toEqual([...FIRST_PASS, AFTER_BLOCK]);
    expect(timeline.checkpointsDelivered).toBe(0);
  });

  it('reads token usage from gemini messages (contextTokens = tokens.input)', () => {
    const timeline = read(fixture(HEADLESS), { hint: { prompt: PROMPT } });
    expect(timeline.tokenUsage).toEqual({ contextTokens: 100, outputTokens: 10, model: 'gemini-2.5-flash', timestamp: '2026-11-22T02:17:12.269Z' });
    expect(timeline.usageHistory).toHaveLength(8);
  });

  it('reports read stats', () => {
    const size = readFileSync(fixture(HEADLESS)).length;
    expect(read(fixture(HEADLESS), { hint: { prompt: PROMPT } }).readStats).toEqual({ bytesRead: size, fileBytes: size });
  });
});

describe('the snapshot taken at the first AfterAgent (real 0.61 recording)', () => {
  it('holds the first pass, no checkpoint yet, and is complete', () => {
    const timeline = read(fixture(SNAPSHOT), { hint: { prompt: PROMPT } });
    expect(callSummary(timeline)).toEqual(FIRST_PASS);
    expect(timeline).toMatchObject({
      checkpointsDelivered: 0,
      lastUserMessage: PROMPT,
      lastAssistantMessage: 'All done: ran two commands, edited notes.txt and read it back.',
      truncated: false,
    });
  });

  it('has the same turnId as the final file: the loop guard sees one turn across the block', () => {
    const first = read(fixture(SNAPSHOT), { hint: { prompt: PROMPT } });
    const second = read(fixture(HEADLESS), { hint: { prompt: PROMPT } });
    const withoutHint = read(fixture(HEADLESS));
    expect(first.turnId).toBeDefined();
    expect(second.turnId).toBe(first.turnId);
    expect(withoutHint.turnId).toBe(first.turnId);
  });
});

describe('interactive (tmux) session (real 0.61 recording)', () => {
  it('ignores warning/info records and the stale functionResponse displayContent of the injected reason', () => {
    const timeline = read(fixture(INTERACTIVE), { hint: { prompt: PROMPT } });
    expect(callSummary(timeline)).toEqual(FIRST_PASS.slice(0, 5));
    expect(timeline).toMatchObject({
      prompt: PROMPT,
      checkpointsDelivered: 1,
      lastUserMessage: 'CHECKPOINT-PROBE: run the tests',
      lastAssistantMessage: 'Acknowledged the checkpoint; nothing else to run.',
      truncated: false,
    });
    expect(read(fixture(INTERACTIVE)).turnId).toBe(timeline.turnId);
  });

  it('a second prompt in the same file opens a new turn (derived)', () => {
    const second = read(fixture('derived-interactive-second-prompt.jsonl'), { hint: { prompt: 'Now run the tests.' } });
    expect(callSummary(second)).toEqual([
      { kind: 'shell', rawName: 'run_shell_command', outcome: 'error', command: 'npm test', exitCode: 1, paths: [] },
    ]);
    expect(second).toMatchObject({ prompt: 'Now run the tests.', checkpointsDelivered: 0, lastAssistantMessage: 'One test fails.' });
    expect(second.turnId).not.toBe(read(fixture(INTERACTIVE), { hint: { prompt: PROMPT } }).turnId);
    // Same result without the hint.
    expect(callSummary(read(fixture('derived-interactive-second-prompt.jsonl')))).toEqual(callSummary(second));
  });

  it('with identical prompt texts, the last one is the boundary', () => {
    const records = fixtureRecords(INTERACTIVE);
    // Append the first turn's prompt + first shell round again under fresh ids.
    const firstRound = records.slice(2, 9).map((r) => (typeof r['id'] === 'string' ? { ...r, id: `again-${r['id'] as string}` } : r));
    expect(firstRound[0]).toMatchObject({ type: 'user', content: [{ text: PROMPT }] });
    const path = temp.write('twice.jsonl', toJsonl([...records, ...firstRound]));
    const timeline = read(path, { hint: { prompt: PROMPT } });
    expect(timeline.turnId).not.toBe(read(fixture(INTERACTIVE), { hint: { prompt: PROMPT } }).turnId);
    expect(callSummary(timeline)).toEqual([FIRST_PASS[0]]);
    expect(timeline.checkpointsDelivered).toBe(0);
  });
});

describe('history edits', () => {
  it('$rewindTo removes the rewound prompt and its calls (derived)', () => {
    const timeline = read(fixture('derived-rewind.jsonl'));
    expect(timeline.prompt).toBe('Only write notes.txt.');
    expect(callSummary(timeline)).toEqual([{ kind: 'write', rawName: 'write_file', outcome: 'success', paths: ['notes.txt'] }]);
    expect(timeline.lastAssistantMessage).toBe('Wrote notes.txt.');
  });

  it('a hint naming the rewound prompt is not matched: it no longer exists', () => {
    const timeline = read(fixture('derived-rewind.jsonl'), { hint: { prompt: PROMPT } });
    expect(timeline.prompt).toBe('Only write notes.txt.');
    expect(timeline.diagnostics.map((d) => d.code)).toContain('turn-not-found');
  });

  it('a $rewindTo after the prompt removes it even though the reader meets the prompt first', () => {
    const records = fixtureRecords(HEADLESS);
    const path = temp.write('rewound.jsonl', toJsonl([...records, { $rewindTo: '6e18cf6c-0a8c-464b-b803-754766fe5b62' }]));
    const timeline = read(path, { hint: { prompt: PROMPT } });
    expect(timeline.hasData).toBe(false);
    expect(timeline.diagnostics.map((d) => d.code)).toEqual(['no-turn']);
    expect(timeline.calls).toEqual([]);
  });

  it('rewinding the latest prompt makes the previous prompt the boundary again', () => {
    const records = fixtureRecords('derived-interactive-second-prompt.jsonl');
    const path = temp.write('rewind-second.jsonl', toJsonl([...records, { $rewindTo: '0b9f7a52-6a4c-4f43-9d0e-2f7f3b0c1a01' }]));
    for (const request of [{}, { hint: { prompt: PROMPT } }]) {
      const timeline = read(path, request, { chunkBytes: 512 });
      expect(timeline).toMatchObject({ prompt: PROMPT, checkpointsDelivered: 1, truncated: false });
      expect(callSummary(timeline)).toEqual(FIRST_PASS.slice(0, 5));
      expect(timeline.turnId).toBe(read(fixture(INTERACTIVE), { hint: { prompt: PROMPT } }).turnId);
    }
  });

  it('a $rewindTo to an unknown id clears everything before it', () => {
    const records = fixtureRecords(HEADLESS);
    const path = temp.write('cleared.jsonl', toJsonl([...records, { $rewindTo: 'no-such-id' }, { id: 'p2', timestamp: 't2', type: 'user', content: [{ text: 'next' }] }]));
    const timeline = read(path);
    expect(timeline).toMatchObject({ hasData: true, prompt: 'next', calls: [], truncated: false });
  });

  it('a $rewindTo to a message inside the turn keeps the prompt and the calls before it', () => {
    const records = fixtureRecords(HEADLESS);
    // Rewind to the tool-result message of the write_file call: write_file's gemini message survives.
    const path = temp.write('partial.jsonl', toJsonl([...records, { $rewindTo: '71bcfc5a-3feb-484e-9926-da8d93230985' }]));
    for (const hint of [{ hint: { prompt: PROMPT } }, {}]) {
      const timeline = read(path, hint, { chunkBytes: 97 });
      expect(callSummary(timeline)).toEqual(FIRST_PASS.slice(0, 3));
      expect(timeline.checkpointsDelivered).toBe(0);
    }
  });

  it('$set.messages rewrite mid-turn: the boundary lies inside the rewritten list (derived)', () => {
    const timeline = read(fixture('derived-set-messages-rewrite.jsonl'), { hint: { prompt: PROMPT } });
    expect(callSummary(timeline)).toEqual([...FIRST_PASS, AFTER_BLOCK]);
    expect(timeline).toMatchObject({ prompt: PROMPT, checkpointsDelivered: 1, truncated: false });
    // The masked shell output still shows its exit code.
    expect(timeline.calls[0]?.output?.head).toContain('Exit Code: 1');
    expect(timeline.turnId).toBe(read(fixture(HEADLESS), { hint: { prompt: PROMPT } }).turnId);
  });

  it('the reader stops at the $set.messages line: nothing before it is read', () => {
    const records = fixtureRecords('derived-set-messages-rewrite.jsonl');
    const at = records.findIndex((r) => Array.isArray((r['$set'] as { messages?: unknown } | undefined)?.messages) && r !== records[1]);
    expect(at).toBeGreaterThan(1);
    // ~300 KiB of older records (an earlier prompt with info notices) that the rewrite makes irrelevant.
    const older = Array.from({ length: 2000 }, (_, n) => ({ id: `old-${n}`, timestamp: 't', type: n === 0 ? 'user' : 'info', content: n === 0 ? [{ text: 'older prompt' }] : 'x'.repeat(120) }));
    const before = [...records.slice(0, at), ...older];
    const after = records.slice(at);
    const path = temp.write('padded.jsonl', toJsonl([...before, ...after]));
    const timeline = read(path, { hint: { prompt: PROMPT } }, { chunkBytes: 4096 });
    expect(callSummary(timeline)).toEqual([...FIRST_PASS, AFTER_BLOCK]);
    const needed = Buffer.byteLength(toJsonl(after));
    expect(timeline.readStats?.bytesRead).toBeLessThanOrEqual(needed + 4096 + SNIFF_BYTES);
    expect(timeline.readStats?.fileBytes).toBeGreaterThan(needed + 300_000);
  });

  it('a rewrite that dropped the prompt (compression) yields a truncated timeline, not a wrong boundary', () => {
    const records = fixtureRecords(HEADLESS);
    const summary = { id: 'summary', timestamp: 't', type: 'user', content: [{ text: '<state_snapshot>\nearlier work\n</state_snapshot>' }] };
    const ack = { id: 'ack', timestamp: 't', type: 'gemini', content: [{ text: 'Got it. Thanks for the additional context!' }] };
    const tail = records.slice(records.findIndex((r) => r['id'] === 'f698f1ef-9c0d-44fd-b380-763108a275e6'));
    const path = temp.write('compressed.jsonl', toJsonl([...records.slice(0, 10), { $set: { messages: [records[1] && (records[1]['$set'] as { messages: unknown[] }).messages[0], summary, ack] } }, ...tail]));
    const timeline = read(path, { hint: { prompt: PROMPT } });
    expect(timeline).toMatchObject({ hasData: true, truncated: true, checkpointsDelivered: 1 });
    expect(timeline.prompt).toBeUndefined();
    expect(timeline.turnId).toBeUndefined();
    expect(callSummary(timeline)).toEqual([AFTER_BLOCK]);
    expect(timeline.diagnostics.map((d) => d.code)).toContain('boundary-rewritten');
  });
});

describe('older single-document format (derived)', () => {
  it('reads a legacy .json document into the same timeline as the JSONL recording', () => {
    const legacy = read(fixture('derived-legacy-session.json'), { hint: { prompt: PROMPT } });
    const jsonl = read(fixture(HEADLESS), { hint: { prompt: PROMPT } });
    expect(callSummary(legacy)).toEqual(callSummary(jsonl));
    expect(legacy.turnId).toBe(jsonl.turnId);
    expect(legacy).toMatchObject({ hasData: true, checkpointsDelivered: 1, prompt: PROMPT, truncated: false });
    expect(legacy.diagnostics.map((d) => d.code)).toEqual(['legacy-format']);
  });

  it('detects the format by content, not by extension', () => {
    const asJsonl = temp.write('session-x.jsonl', readFileSync(fixture('derived-legacy-session.json')));
    expect(callSummary(read(asJsonl))).toEqual(callSummary(read(fixture(HEADLESS))));
    const asJson = temp.write('session-y.json', readFileSync(fixture(HEADLESS)));
    expect(callSummary(read(asJson))).toEqual(callSummary(read(fixture(HEADLESS))));
  });

  it('a compact single-line document is read too', () => {
    const doc = JSON.parse(readFileSync(fixture('derived-legacy-session.json'), 'utf8')) as unknown;
    const path = temp.write('compact.json', JSON.stringify(doc));
    expect(callSummary(read(path, { hint: { prompt: PROMPT } }))).toEqual([...FIRST_PASS, AFTER_BLOCK]);
  });

  it('is not parsed when larger than the cap', () => {
    const timeline = read(fixture('derived-legacy-session.json'), { maxBytes: 4096 });
    expect(timeline).toMatchObject({ hasData: false, calls: [] });
    expect(timeline.diagnostics[0]?.code).toBe('legacy-too-large');
    expect(timeline.readStats?.bytesRead).toBeLessThanOrEqual(4096);
  });

  it('an invalid document gets a clear diagnostic', () => {
    const broken = temp.write('broken.json', '{\n  "sessionId": "x",\n  "messages": [\n');
    expect(read(broken).diagnostics[0]?.code).toBe('legacy-parse-error');
    const noMessages = temp.write('nomsg.json', '{\n  "sessionId": "x"\n}\n');
    expect(read(noMessages).diagnostics[0]).toMatchObject({ code: 'legacy-parse-error' });
  });
});

describe('turn rules', () => {
  const user = (id: string, text: string) => ({ id, timestamp: `t-${id}`, type: 'user', content: [{ text }] });
  const shell = (id: string, command: string) => ({
    id,
    timestamp: `t-${id}`,
    type: 'gemini',
    content: '',
    toolCalls: [{ id: `c-${id}`, name: 'run_shell_command', args: { command }, result: [{ functionResponse: { id: `c-${id}`, name: 'run_shell_command', response: { output: 'Output: ok' } } }], status: 'success' }],
  });

  it('CLI injections are never boundaries', () => {
    const path = temp.write(
      'injections.jsonl',
      toJsonl([
        { sessionId: 's', projectHash: 'h' },
        user('p', 'real prompt'),
        shell('g1', 'one'),
        user('loop', 'System: Potential loop detected. Details: Repeating content detected: x. Please take a step back.'),
        shell('g2', 'two'),
        user('cont', 'Please continue.'),
        shell('g3', 'three'),
      ]),
    );
    const timeline = read(path);
    expect(timeline.prompt).toBe('real prompt');
    expect(timeline.calls.map((c) => (c.kind === 'shell' ? c.command : ''))).toEqual(['one', 'two', 'three']);
    expect(timeline.lastUserMessage).toBe('Please continue.');
  });

  it('several of our checkpoints in one turn are all counted', () => {
    const path = temp.write(
      'many.jsonl',
      toJsonl([user('p', 'do it'), shell('g1', 'a'), user('r1', `${PREFIX} one`), shell('g2', 'b'), user('r2', `${PREFIX} two`), shell('g3', 'c')]),
    );
    const timeline = read(path, { hint: { prompt: 'do it' } });
    expect(timeline.checkpointsDelivered).toBe(2);
    expect(timeline.calls).toHaveLength(3);
    expect(timeline.lastUserMessage).toBe(`${PREFIX} two`);
  });

  it('a hint that is one of our own checkpoints (a BeforeAgent payload) is ignored', () => {
    const path = temp.write('before.jsonl', toJsonl([user('p', 'do it'), shell('g1', 'a'), user('r1', `${PREFIX} run tests`), shell('g2', 'b')]));
    const timeline = read(path, { hint: { prompt: `${PREFIX} run tests` } });
    expect(timeline.prompt).toBe('do it');
    expect(timeline.calls).toHaveLength(2);
  });

  it('matches the hint against the start of the text and against displayContent', () => {
    const path = temp.write(
      'at-file.jsonl',
      toJsonl([
        { id: 'p', timestamp: 't', type: 'user', content: [{ text: 'Explain ' }, { text: '--- Content from referenced files ---' }], displayContent: [{ text: 'Explain @src/a.ts' }] },
        shell('g1', 'a'),
      ]),
    );
    expect(read(path, { hint: { prompt: 'Explain' } }).prompt).toBe('Explain --- Content from referenced files ---');
    expect(read(path, { hint: { prompt: 'Explain @src/a.ts' } }).prompt).toBe('Explain --- Content from referenced files ---');
  });

  it('gemini content written as a parts array (after a rewrite) gives the assistant text, without thoughts', () => {
    const path = temp.write(
      'parts.jsonl',
      toJsonl([user('p', 'q'), { id: 'g', timestamp: 't', type: 'gemini', content: [{ text: 'thinking…', thought: true }, { text: 'Answer.' }] }]),
    );
    expect(read(path).lastAssistantMessage).toBe('Answer.');
  });

  it('a transcript with only the session context has no turn yet', () => {
    const records = fixtureRecords(HEADLESS).slice(0, 2);
    const timeline = read(temp.write('fresh.jsonl', toJsonl(records)));
    expect(timeline).toMatchObject({ hasData: false, calls: [] });
    expect(timeline.diagnostics.map((d) => d.code)).toEqual(['no-turn']);
  });

  it('tokens: null and missing counts are tolerated', () => {
    const path = temp.write('tokens.jsonl', toJsonl([user('p', 'q'), { id: 'g', timestamp: 't', type: 'gemini', content: 'a', tokens: null, model: 'm' }]));
    const timeline = read(path);
    expect(timeline.tokenUsage).toBeUndefined();
    expect(timeline.hasData).toBe(true);
  });
});

describe('a session started with a SessionStart hook context (Gemini CLI 0.61 prepends it to the prompt)', () => {
  const context = '<hook_context>The previous session ended with a context checkpoint (L2 (context at 86%), 2026-11-28 08:47). Read .agent-checkpoint/handoffs/2026-11-28-0847.md before continuing.\n\n---\n# Session Handoff: Session A\n</hook_context>';
  const prompt = 'Session B: continue from where A stopped.';
  const records = [
    { sessionId: 'b0700cc5-fc4e-4e4b-8483-50ba416394b0', projectHash: 'd8f4', startTime: '2026-11-28T08:47:37.436Z', lastUpdated: '2026-11-28T08:47:37.436Z', kind: 'main' },
    { id: 'u1', timestamp: '2026-11-28T08:47:38.217Z', type: 'user', content: [{ text: `${context}\n\n${prompt}` }] },
    { $set: { lastUpdated: '2026-11-28T08:47:38.217Z' } },
    { id: 'g1', timestamp: '2026-11-28T08:47:38.548Z', type: 'gemini', content: 'Continuing from the handoff.', thoughts: [], tokens: { input: 100, output: 10, cached: 0, thoughts: 0, tool: 0, total: 110 }, model: 'gemini-2.5-flash' },
  ];

  it('the prompt is the user’s, and the AfterAgent payload’s prompt finds the turn', () => {
    const path = temp.write('session-resumed.jsonl', toJsonl(records));
    for (const request of [{}, { hint: { prompt } }]) {
      const timeline = read(path, request);
      expect(timeline.prompt).toBe(prompt);
      expect(timeline.diagnostics).toEqual([]);
      expect(timeline.lastAssistantMessage).toBe('Continuing from the handoff.');
    }
  });
});
