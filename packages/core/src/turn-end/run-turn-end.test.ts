import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempGitRepo, type TempGitRepo } from '../git/temp-git-repo.ts';
import { offSwitchPath } from '../state/off-switches.ts';
import { readSessionState } from '../state/session-state-store.ts';
import type { ToolCall } from '../timeline/tool-call.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import type { ReadTurnRequest, TranscriptReader } from '../transcript/transcript-reader.ts';
import { previewTurnEnd, runTurnEnd } from './run-turn-end.ts';
import type { TurnEndEvent } from './turn-end-event.ts';
import type { TurnEndExtension } from './turn-end-extension.ts';
import { z } from 'zod';
import { classify } from '../config/config-schema.ts';
import { configSectionSource } from '../config/config-section.ts';
import { defineConfigSection } from '../config/define-config-section.ts';

/**
 * A `runTests` section registered by these tests, as the context checkpoint package registers its
 * own (core never imports it): two privileged keys, so an untrusted project file setting them gets a
 * notice.
 */
const RUN_TESTS_SECTION = defineConfigSection<unknown>({
  id: 'runTests',
  schemas: {
    runTests: classify(z.strictObject({ enabled: z.boolean().optional(), command: z.string().optional() }), {
      enabled: { privileged: 'turns on a command run by the hook' },
      command: { privileged: 'a shell command the hook runs' },
    }),
  },
  defaults: undefined,
  resolve: (layers) => ({ value: layers.at(-1)?.['runTests'] }),
});

// The turn-end pipeline end to end on real parts: a real git repository with a real project config
// file, a real state directory, a transcript file on disk read by a reader that parses it on every
// call (core knows no agent format: the file holds the neutral timeline a reader would produce).

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

const PROJECT_CONFIG = {
  categories: [{ id: 'server', label: 'server code', include: ['server/**'], action: 'Restart the server: `make restart`', evidence: ['make restart'] }],
  detectPresets: false,
};

interface World {
  readonly repo: TempGitRepo;
  readonly stateDir: string;
  readonly transcript: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The reader's requests, in order. */
  readonly reads: ReadTurnRequest[];
  readonly reader: TranscriptReader;
  writeTurn(calls: readonly ToolCall[], extra?: Partial<TurnTimeline>): void;
}

function world(config: object = PROJECT_CONFIG): World {
  const repo = makeTempGitRepo();
  cleanups.push(repo.remove);
  repo.write('.agent-checkpoint.json', JSON.stringify(config));
  repo.write('server/app.ts', 'v1\n');
  repo.git(['add', '-A']);
  repo.commit('base', Math.floor(Date.now() / 1000) - 7200);
  const outside = join(repo.dir, '..');
  const stateDir = join(outside, 'state');
  const transcript = join(outside, 'transcripts', 'session.json');
  mkdirSync(join(outside, 'transcripts'));
  const reads: ReadTurnRequest[] = [];
  const reader: TranscriptReader = {
    specificationVersion: 'transcript-reader-v1',
    agent: 'claude',
    async readTurn(request) {
      reads.push(request);
      return JSON.parse(await readFile(request.transcriptPath, 'utf8')) as TurnTimeline;
    },
    locateTranscript: () => Promise.resolve(transcript),
  };
  return {
    repo,
    stateDir,
    transcript,
    env: { ...repo.env, AGENT_CHECKPOINT_STATE_DIR: stateDir },
    reads,
    reader,
    writeTurn(calls, extra = {}) {
      const timeline: TurnTimeline = {
        agent: 'claude',
        hasData: true,
        startedAt: new Date(Date.now() - 60_000).toISOString(),
        turnId: 'turn-1',
        calls: [...calls],
        checkpointsDelivered: 0,
        truncated: false,
        diagnostics: [],
        ...extra,
      };
      writeFileSync(transcript, JSON.stringify(timeline));
    },
  };
}

let n = 0;
const at = (msAgo: number): string => new Date(Date.now() - msAgo).toISOString();
const edit = (path: string): ToolCall => ({ id: `c${++n}`, kind: 'edit', rawName: 'Edit', input: { file_path: path }, paths: [path], outcome: 'success', timestamp: at(30_000) });

/** The actionable turn: the server file changed, and no restart ran. */
function actionableTurn(w: World): void {
  w.repo.write('server/app.ts', 'v2\n');
  w.writeTurn([edit(join(w.repo.dir, 'server/app.ts'))]);
}

function event(w: World, extra: Partial<TurnEndEvent> = {}): TurnEndEvent {
  return {
    agent: 'claude',
    cwd: w.repo.dir,
    sessionId: 'sess-1',
    transcript: { kind: 'path', path: w.transcript },
    reader: () => w.reader,
    hint: { turnId: 'turn-1' },
    turnIdIsFinal: true,
    turnKey: (timeline) => timeline?.turnId,
    deadlineAt: Date.now() + 20_000,
    env: w.env,
    now: () => new Date(),
    stateDir: w.stateDir,
    extensions: [],
    ...extra,
  };
}

/** Every path under `dir` with its size and mtime (empty when the directory does not exist). */
function walk(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
  return names.sort().map((name) => {
    const info = statSync(join(dir, name));
    return `${name} ${info.isDirectory() ? 'dir' : info.size} ${info.mtimeMs}`;
  });
}

describe('runTurnEnd: the passes', () => {
  it('an off switch passes before the config or the transcript is read', async () => {
    const w = world();
    actionableTurn(w);
    const decision = await runTurnEnd(event(w, { env: { ...w.env, AGENT_CHECKPOINT_DISABLE: '1' } }));
    expect(decision).toMatchObject({ kind: 'pass', reason: 'switched-off', detail: expect.stringContaining('AGENT_CHECKPOINT_DISABLE=1') });
    expect(w.reads).toEqual([]);

    // The session's switch file, and the route's own reading of the switches, count the same.
    mkdirSync(join(w.stateDir, 'switches'), { recursive: true });
    writeFileSync(offSwitchPath(w.stateDir, { kind: 'session', sessionId: 'sess-1' }), '');
    expect(await runTurnEnd(event(w))).toMatchObject({ kind: 'pass', reason: 'switched-off' });
    expect(w.reads).toEqual([]);
  });

  it('`enabled: false` passes as disabled, without reading the transcript', async () => {
    const w = world({ ...PROJECT_CONFIG, enabled: false });
    actionableTurn(w);
    expect(await runTurnEnd(event(w))).toMatchObject({ kind: 'pass', reason: 'disabled' });
    expect(w.reads).toEqual([]);
  });

  it('a FIFO as the project config file passes as config-unusable (never read)', async () => {
    const w = world();
    actionableTurn(w);
    const config = join(w.repo.dir, '.agent-checkpoint.json');
    spawnSync('rm', [config]);
    expect(spawnSync('mkfifo', [config]).status).toBe(0);
    const warnings: string[] = [];
    const decision = await runTurnEnd(event(w, { log: { warn: (line) => warnings.push(line), debug: () => undefined } }));
    expect(decision).toMatchObject({ kind: 'pass', reason: 'config-unusable', detail: `${config} is not a regular file` });
    expect(warnings).toContainEqual(expect.stringContaining('is not a regular file'));

    // A route that ignores it instead: the file's one-line diagnostic, and the defaults decide.
    warnings.length = 0;
    const ignored = await runTurnEnd(event(w, { unusableConfigPath: 'defaults', log: { warn: (line) => warnings.push(line), debug: () => undefined } }));
    expect(ignored).toMatchObject({ kind: 'block', mode: 'actionable' });
    expect(warnings).toContainEqual(expect.stringMatching(/^config: .*\.agent-checkpoint\.json: is not a regular file/));
  });

  it('a turn with nothing to say passes as silent, with the outcome for the debug log', async () => {
    const w = world();
    w.writeTurn([]);
    expect(await runTurnEnd(event(w))).toMatchObject({ kind: 'pass', reason: 'silent', detail: 'getCheckpoint is silent (no-changes)', outcome: { mode: 'no-changes' } });
  });
});

describe('runTurnEnd: block, claim and the loop guard', () => {
  it('blocks with the composed text; the claim records it; the next stop of the turn passes early, reading nothing', async () => {
    const w = world();
    actionableTurn(w);
    const decision = await runTurnEnd(event(w));
    if (decision.kind !== 'block') throw new Error(`expected a block, got ${JSON.stringify(decision)}`);
    expect(decision.mode).toBe('actionable');
    expect(decision.message).toContain('Restart the server: `make restart`');
    expect(decision.loopGuard).toMatchObject({ verdict: 'allow', blocksSoFar: 0 });
    expect(decision.transcriptPath).toBe(w.transcript);
    expect(await readSessionState({ stateDir: w.stateDir, agent: 'claude', sessionId: 'sess-1' })).toMatchObject({ state: { turns: [] } });

    const claimed = await decision.claim();
    expect(claimed.claim).toMatchObject({ verdict: 'allow', turnId: 'turn-1' });
    const { state } = await readSessionState({ stateDir: w.stateDir, agent: 'claude', sessionId: 'sess-1' });
    expect(state.turns).toEqual([expect.objectContaining({ turnId: 'turn-1', blocks: 1 })]);
    expect(state.delivered?.length).toBe(1);
    // A second claim of the same block is refused under the lock.
    expect((await decision.claim()).claim).toMatchObject({ verdict: 'pass', reason: 'turn-limit-reached' });

    const readsBefore = w.reads.length;
    const again = await runTurnEnd(event(w));
    expect(again).toMatchObject({ kind: 'pass', reason: 'loop-guard', loopGuard: { reason: 'turn-limit-reached' } });
    expect(w.reads.length).toBe(readsBefore);
  });

  it('a turn id that is not final is decided on the transcript: the unlocked verdict passes, the claim too', async () => {
    const w = world();
    actionableTurn(w);
    const first = await runTurnEnd(event(w, { turnIdIsFinal: false }));
    if (first.kind !== 'block') throw new Error('expected a block');
    expect((await first.claim()).claim.verdict).toBe('allow');
    const second = await runTurnEnd(event(w, { turnIdIsFinal: false }));
    if (second.kind !== 'block') throw new Error('expected the checkpoint to be computed again');
    expect(second.loopGuard).toMatchObject({ verdict: 'pass', reason: 'turn-limit-reached' });
    expect((await second.claim()).claim).toMatchObject({ verdict: 'pass', reason: 'turn-limit-reached' });
  });

  it('a route without an escape hatch recognises the turn that answers its own checkpoint', async () => {
    const w = world();
    actionableTurn(w);
    const first = await runTurnEnd(event(w, { recogniseOwnCheckpoints: true }));
    if (first.kind !== 'block') throw new Error('expected a block');
    expect((await first.claim()).claim.verdict).toBe('allow');
    const answer = await runTurnEnd(event(w, { recogniseOwnCheckpoints: true, hint: { turnId: 'turn-2', prompt: first.message } }));
    expect(answer).toMatchObject({ kind: 'pass', reason: 'own-checkpoint-turn' });
    // The same prompt typed by the user on a route with an escape hatch is a prompt like any other.
    expect(await runTurnEnd(event(w, { hint: { turnId: 'turn-2', prompt: first.message } }))).toMatchObject({ kind: 'block' });
  });

  it('the route may refuse the transcript found: nothing else is read', async () => {
    const w = world();
    actionableTurn(w);
    const seen: (string | undefined)[] = [];
    const decision = await runTurnEnd(event(w, { admitTranscript: async (path) => (seen.push(path), 'not typing: no pane') }));
    expect(decision).toMatchObject({ kind: 'pass', reason: 'route-refused', detail: 'not typing: no pane' });
    expect(seen).toEqual([w.transcript]);
    expect(w.reads).toEqual([]);
  });
});

describe('previewTurnEnd (explain): read-only', () => {
  it('writes nothing in the state directory, even switched off and after a claim; reports the switch and the loop guard', async () => {
    const w = world();
    actionableTurn(w);
    // A state directory with a session record and the session switched off.
    const claimed = await runTurnEnd(event(w, { hint: { turnId: 'earlier-turn' }, turnKey: () => 'earlier-turn' }));
    if (claimed.kind !== 'block') throw new Error('expected a block');
    expect((await claimed.claim()).claim.verdict).toBe('allow');
    mkdirSync(join(w.stateDir, 'switches'), { recursive: true });
    writeFileSync(offSwitchPath(w.stateDir, { kind: 'session', sessionId: 'sess-1' }), '');
    const ran: string[] = [];
    const writer: TurnEndExtension = { name: 'writer', run: async () => (ran.push('writer'), {}) };
    const before = walk(w.stateDir);

    const preview = await previewTurnEnd(event(w, { extensions: [writer] }));
    expect(preview.decision).toMatchObject({ kind: 'block', mode: 'actionable' });
    expect(preview.offSwitch).toMatchObject({ off: true, source: 'session' });
    expect(preview.loopGuard).toMatchObject({ verdict: 'allow', blocksSoFar: 0 });
    expect(preview.skippedExtensions).toEqual(['writer']);
    expect(ran).toEqual([]);
    expect('claim' in preview.decision).toBe(false);
    expect(walk(w.stateDir)).toEqual(before);
    expect(readFileSync(join(w.repo.dir, 'server/app.ts'), 'utf8')).toBe('v2\n');
  });
});

describe('runTurnEnd: extensions', () => {
  it('an extension that throws leaves the decision as it was, with a diagnostic', async () => {
    const w = world();
    actionableTurn(w);
    const plain = await runTurnEnd(event(w));
    const boom: TurnEndExtension = { name: 'boom', run: () => Promise.reject(new Error('kaput')) };
    const withBoom = await runTurnEnd(event(w, { extensions: [boom] }));
    if (plain.kind !== 'block' || withBoom.kind !== 'block') throw new Error('expected blocks');
    expect(withBoom.message).toBe(plain.message);
    expect(withBoom.mode).toBe(plain.mode);
    expect(withBoom.outcome.diagnostics).toContainEqual('extension boom failed: kaput; decision unchanged');

    // On a silent turn too: still silent.
    w.writeTurn([]);
    w.repo.git(['checkout', '--', 'server/app.ts']);
    expect(await runTurnEnd(event(w, { extensions: [boom] }))).toMatchObject({ kind: 'pass', reason: 'silent' });
  });

  it("an extension's lines alone make a `context` message; with a message they ride along; its detail is in the outcome", async () => {
    const w = world();
    w.writeTurn([]);
    const ctx: TurnEndExtension<{ level: string }> = {
      name: 'ctx',
      run: async (input) => ({ lines: [`Context is at 91% (L3); had a message: ${input.hasMessage}.`], blocksAlone: true, detail: { level: 'L3' } }),
    };
    const alone = await runTurnEnd(event(w, { extensions: () => Promise.resolve([ctx]) }));
    if (alone.kind !== 'block') throw new Error(`expected a context block, got ${JSON.stringify(alone)}`);
    expect(alone.mode).toBe('context');
    expect(alone.message).toContain('Context is at 91% (L3); had a message: false.');
    expect(alone.outcome.extensions).toEqual({ ctx: { level: 'L3' } });

    // Lines that do not block alone say nothing on a silent turn.
    const riding: TurnEndExtension = { name: 'riding', run: async () => ({ lines: ['a note'] }) };
    expect(await runTurnEnd(event(w, { extensions: [riding] }))).toMatchObject({ kind: 'pass', reason: 'silent' });

    actionableTurn(w);
    const withMessage = await runTurnEnd(event(w, { extensions: [ctx] }));
    if (withMessage.kind !== 'block') throw new Error('expected a block');
    expect(withMessage.mode).toBe('actionable');
    expect(withMessage.message).toContain('Restart the server: `make restart`');
    expect(withMessage.message).toContain('Context is at 91% (L3); had a message: true.');
  });
});

describe('runTurnEnd: notices for the user', () => {
  it('a clean turn has none, pass or block', async () => {
    const w = world();
    actionableTurn(w);
    expect(await runTurnEnd(event(w))).toMatchObject({ kind: 'block', notices: [] });
    const quiet = world();
    quiet.writeTurn([]);
    expect(await runTurnEnd(event(quiet))).toMatchObject({ kind: 'pass', reason: 'silent', notices: [] });
  });

  it('a broken project config: the decision is the same as with no file, plus a config-broken notice quoting the problem', async () => {
    const w = world();
    actionableTurn(w);
    w.repo.write('.agent-checkpoint.json', '{\n  "categories": [\n  }\n');
    const decision = await runTurnEnd(event(w));
    expect(decision.notices).toEqual([{ kind: 'config-broken', text: expect.stringMatching(/^agent-checkpoint: configuration problem: .*\.agent-checkpoint\.json: invalid configuration, file ignored: /) }]);
    expect(decision.notices[0]!.text).toContain('`agent-checkpoint-hook doctor`');
    // The notice never reaches the message.
    if (decision.kind === 'block') expect(decision.message).not.toContain('configuration problem');
  });

  it('an untrusted privileged key: a config-untrusted notice naming the key and `trust`; the rest of the file applies', async () => {
    const w = world({ ...PROJECT_CONFIG, runTests: { enabled: true, command: 'make test' } });
    actionableTurn(w);
    const decision = await runTurnEnd(event(w, { configSections: configSectionSource([RUN_TESTS_SECTION]) }));
    expect(decision).toMatchObject({ kind: 'block', mode: 'actionable' });
    expect(decision.notices).toEqual([
      { kind: 'config-untrusted', text: expect.stringMatching(/runTests\.enabled, runTests\.command are ignored\. .*`agent-checkpoint-hook trust`/) },
    ]);
  });

  it('a transcript path that is a directory: a transcript-unreadable notice; the checkpoint falls back to the files', async () => {
    const w = world();
    actionableTurn(w);
    const dir = join(w.transcript, '..', 'a-directory');
    mkdirSync(dir);
    const decision = await runTurnEnd(event(w, { transcript: { kind: 'path', path: dir } }));
    expect(decision.kind).toBe('block');
    expect(decision.notices).toEqual([{ kind: 'transcript-unreadable', text: expect.stringContaining(`${dir} is not a regular file`) }]);
    expect(w.reads).toEqual([]);
  });

  it('a transcript the reader calls unknown-format: a transcript-unknown-format notice', async () => {
    const w = world();
    actionableTurn(w);
    w.writeTurn([], { hasData: false, diagnostics: [{ level: 'warn', code: 'unknown-format', message: 'No line of the file is valid JSON' }] });
    const decision = await runTurnEnd(event(w));
    expect(decision.notices).toEqual([{ kind: 'transcript-unknown-format', text: expect.stringContaining('No line of the file is valid JSON') }]);
  });

  it('a FIFO as the project config: the pass carries a config-unusable notice', async () => {
    const w = world();
    const config = join(w.repo.dir, '.agent-checkpoint.json');
    spawnSync('rm', [config]);
    expect(spawnSync('mkfifo', [config]).status).toBe(0);
    expect(await runTurnEnd(event(w))).toMatchObject({ kind: 'pass', reason: 'config-unusable', notices: [{ kind: 'config-unusable', text: expect.stringContaining(config) }] });
  });
});
