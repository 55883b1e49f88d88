import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigFile, ResolvedConfig } from './config/config-schema.ts';
import { resolveConfig } from './config/resolve-config.ts';
import { getCheckpoint } from './get-checkpoint.ts';
import type { CheckpointRequest } from './get-checkpoint-types.ts';
import { offSwitchPath, readOffSwitch } from './state/off-switches.ts';
import { makeTempDir, makeTempGitRepo, type TempGitRepo } from './git/temp-git-repo.ts';
import { makeOutputExcerpt } from './timeline/make-output-excerpt.ts';
import type { ToolCall } from './timeline/tool-call.ts';
import type { TurnTimeline } from './timeline/turn-timeline.ts';
import type { ReadTurnRequest, TranscriptReader } from './transcript/transcript-reader.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function repo(): TempGitRepo {
  const r = makeTempGitRepo();
  cleanups.push(r.remove);
  return r;
}

/** A project configuration with one category, as a user would write it. */
const SERVER: ConfigFile = {
  categories: [
    { id: 'server', label: 'server code', include: ['server/**'], action: 'Restart the server: `make restart`', evidence: ['make restart'] },
  ],
};
const config = (file: ConfigFile = SERVER): ResolvedConfig => resolveConfig([{ config: file, source: { kind: 'project-file', name: 'test' } }]);

/** A transcript reader that returns a fixed timeline (or throws) and records what it was asked. */
function fakeReader(result: TurnTimeline | Error): TranscriptReader & { requests: ReadTurnRequest[] } {
  const requests: ReadTurnRequest[] = [];
  return {
    specificationVersion: 'transcript-reader-v1',
    agent: 'claude',
    requests,
    readTurn(request) {
      requests.push(request);
      return result instanceof Error ? Promise.reject(result) : Promise.resolve(result);
    },
    locateTranscript: () => Promise.resolve(undefined),
  };
}

const startedAt = (msAgo: number): string => new Date(Date.now() - msAgo).toISOString();

function timeline(calls: ToolCall[], start = startedAt(60_000)): TurnTimeline {
  return { agent: 'claude', hasData: true, startedAt: start, calls, checkpointsDelivered: 0, truncated: false, diagnostics: [] };
}

let callId = 0;
const at = (msAgo: number): string => new Date(Date.now() - msAgo).toISOString();
const edit = (path: string, msAgo = 30_000): ToolCall => ({
  id: `call-${++callId}`,
  kind: 'edit',
  rawName: 'Edit',
  input: { file_path: path },
  paths: [path],
  outcome: 'success',
  timestamp: at(msAgo),
});
const read = (path: string, msAgo = 40_000): ToolCall => ({ ...edit(path, msAgo), kind: 'read', rawName: 'Read' });
const shell = (command: string, msAgo = 10_000, exitCode = 0): ToolCall => ({
  id: `call-${++callId}`,
  kind: 'shell',
  rawName: 'Bash',
  input: { command },
  paths: [],
  command,
  exitCode,
  outcome: exitCode === 0 ? 'success' : 'error',
  timestamp: at(msAgo),
});

function request(r: { dir: string; env: Readonly<Record<string, string | undefined>> }, extra: Partial<CheckpointRequest> = {}): CheckpointRequest {
  return { agent: 'claude', cwd: r.dir, env: r.env, config: config(), sessionId: 'sess-1', ...extra };
}

describe('getCheckpoint', () => {
  it('asks for the missing action when a category file changed and no evidence was seen', async () => {
    const r = repo();
    r.write('server/app.ts', 'changed\n');
    const reader = fakeReader(timeline([read(join(r.dir, 'server/app.ts')), edit(join(r.dir, 'server/app.ts'))]));
    const outcome = await getCheckpoint(request(r, { transcript: { reader, path: '/transcripts/t.jsonl', hint: { turnId: 't1' } } }));

    expect(outcome).toMatchObject({ decision: 'message', mode: 'actionable' });
    expect(outcome.message).toContain('Restart the server: `make restart`');
    expect(outcome.message).toContain('server code');
    expect(outcome.message).toContain('sess-1'); // escape hatch names the session
    expect(outcome.message?.startsWith(config().messages.prefix)).toBe(true);
    expect(outcome.files).toEqual([expect.objectContaining({ reason: 'tool-mutation', file: expect.objectContaining({ path: 'server/app.ts' }) })]);
    expect(outcome.diagnostics).toEqual([]);
    // The reader got the configured prefix, byte cap and the route's hint.
    expect(reader.requests).toEqual([
      expect.objectContaining({
        transcriptPath: '/transcripts/t.jsonl',
        checkpointPrefix: config().messages.prefix,
        maxBytes: config().transcriptMaxBytes,
        hint: { turnId: 't1' },
      }),
    ]);
  });

  it('stays silent when the action was already done (all clear)', async () => {
    const r = repo();
    r.write('server/app.ts', 'changed\n');
    const reader = fakeReader(timeline([read(join(r.dir, 'server/app.ts')), edit(join(r.dir, 'server/app.ts'), 30_000), shell('make restart', 5_000)]));
    const outcome = await getCheckpoint(request(r, { transcript: { reader, path: '/t.jsonl' } }));
    expect(outcome).toMatchObject({ decision: 'silent', mode: 'all-clear' });
    expect(outcome.message).toBeUndefined();
    expect(outcome.result?.isAllClear).toBe(true);
  });

  it('a typo\'d command corrected in the same turn passes; an unrelated success does not clear a real typo', async () => {
    const r = repo();
    r.write('Makefile', 'restart:\n\t@echo restarted\n');
    r.write('server/app.ts', 'changed\n');
    /** The command really run in the repository: its exit status and output as the transcript records them. */
    const ran = (command: string, msAgo: number): ToolCall => {
      const p = spawnSync('bash', ['-c', command], { cwd: r.dir, env: { ...r.env, PATH: process.env['PATH'] }, encoding: 'utf8', timeout: 30_000 });
      const exitCode = p.status ?? 1;
      return { ...shell(command, msAgo, exitCode), output: makeOutputExcerpt(`${p.stdout}${p.stderr}`) };
    };
    const app = join(r.dir, 'server/app.ts');
    const corrected = fakeReader(timeline([read(app), edit(app, 30_000), ran('make restrat', 20_000), ran('make restart', 10_000)]));
    const outcome = await getCheckpoint(request(r, { transcript: { reader: corrected, path: '/t.jsonl' } }));
    expect(outcome).toMatchObject({ decision: 'silent', mode: 'all-clear' });

    const calls = [read(app), edit(app, 30_000), ran('make restart', 20_000), ran('make statsu', 15_000), ran('ls', 10_000)];
    const uncorrected = await getCheckpoint(request(r, { transcript: { reader: fakeReader(timeline(calls)), path: '/t.jsonl' } }));
    expect(uncorrected).toMatchObject({ decision: 'message', mode: 'actionable' });
    expect(uncorrected.message).toContain('- A command returned errors — verify the issue is resolved: `make statsu` (call #4)');
  });

  it('a turn longer than the byte cap keeps its file-based checkpoint (the tail and modification times)', async () => {
    const r = repo();
    r.write('server/app.ts', 'changed early in the turn\n');
    r.touch('server/app.ts', Date.now() - 3_600_000);
    r.write('server/late.ts', 'changed by a generator while the tail was written\n');
    r.touch('server/late.ts', Date.now() - 5_000);
    // What a reader returns when the prompt lies beyond the cap: no start, the tail's calls only.
    const { startedAt: _unknown, ...tail } = timeline([shell('git status', 20_000), shell('ls server', 10_000)]);
    const capped: TurnTimeline = {
      ...tail,
      truncated: true,
      diagnostics: [{ level: 'warn', code: 'cap-reached', message: 'the start of the turn lies beyond the cap' }],
    };
    const outcome = await getCheckpoint(request(r, { transcript: { reader: fakeReader(capped), path: '/t.jsonl' } }));
    expect(outcome).toMatchObject({ decision: 'message', mode: 'actionable' });
    expect(outcome.message).toContain('Restart the server: `make restart`');
    expect(outcome.files.map((f) => [f.file.path, f.reason])).toEqual([
      ['server/app.ts', 'truncated-unread-part'],
      ['server/late.ts', 'modified-during-turn'],
    ]);
  });

  it('stays silent when nothing changed this turn, ignoring dirt left by earlier turns', async () => {
    const r = repo();
    r.write('server/old.ts', 'dirty from yesterday\n');
    r.touch('server/old.ts', Date.now() - 3_600_000);
    const reader = fakeReader(timeline([read(join(r.dir, 'server/old.ts')), shell('cat server/old.ts')]));
    const outcome = await getCheckpoint(request(r, { transcript: { reader, path: '/t.jsonl' } }));
    expect(outcome).toMatchObject({ decision: 'silent', mode: 'no-changes', files: [] });
    expect(outcome.git).toMatchObject({ kind: 'repo', files: [expect.objectContaining({ path: 'server/old.ts' })] });
  });

  it('categorizes the files of this turn only, for the mode and the message alike', async () => {
    const r = repo();
    r.write('server/old.ts', 'dirty from yesterday\n');
    r.touch('server/old.ts', Date.now() - 3_600_000);
    r.write('docs/guide.md', 'edited now\n');
    const docsTurn = fakeReader(timeline([read(join(r.dir, 'docs/guide.md')), edit(join(r.dir, 'docs/guide.md'))]));
    const loud = config({ ...SERVER, silentWhenNoChanges: false });
    // Only docs were touched: no-changes, although a stale server file is dirty.
    const docsOnly = await getCheckpoint(request(r, { config: loud, transcript: { reader: docsTurn, path: '/t.jsonl' } }));
    expect(docsOnly).toMatchObject({ decision: 'message', mode: 'no-changes', files: [expect.objectContaining({ reason: 'tool-mutation' })] });
    expect(docsOnly.message?.startsWith(`${loud.messages.prefix}${loud.messages.noChanges}`)).toBe(true);
    expect(docsOnly.message).not.toContain('make restart');

    // The server file touched as well: actionable, and the summary names only its category.
    r.write('server/app.ts', 'changed\n');
    const both = fakeReader(timeline([read(join(r.dir, 'server/app.ts')), edit(join(r.dir, 'server/app.ts')), edit(join(r.dir, 'docs/guide.md'))]));
    const outcome = await getCheckpoint(request(r, { config: loud, transcript: { reader: both, path: '/t.jsonl' } }));
    expect(outcome).toMatchObject({ decision: 'message', mode: 'actionable' });
    expect(outcome.message).toContain(`${loud.messages.changedLabel} server code`);
    expect(outcome.result?.categories.map((c) => [c.id, c.files])).toEqual([['server', ['server/app.ts']]]);
  });

  it('includes files committed during the turn', async () => {
    const r = repo();
    r.write('server/feature.ts', 'new\n');
    r.git(['add', '-A']);
    r.commit('agent commit', Math.floor(Date.now() / 1000) - 5);
    // The agent committed with a shell command; no edit call names the file.
    const reader = fakeReader(timeline([shell('git commit -am "feature"', 5_000)], startedAt(120_000)));
    const outcome = await getCheckpoint(request(r, { transcript: { reader, path: '/t.jsonl' } }));
    expect(outcome).toMatchObject({ decision: 'message', mode: 'actionable' });
    expect(outcome.files).toEqual([
      expect.objectContaining({ reason: 'committed-during-turn', file: expect.objectContaining({ path: 'server/feature.ts', source: 'committed' }) }),
    ]);
    expect(outcome.message).toContain('Restart the server');
  });

  it('falls back to file-based instructions when the reader throws', async () => {
    const r = repo();
    r.write('server/app.ts', 'changed\n');
    const outcome = await getCheckpoint(request(r, { transcript: { reader: fakeReader(new Error('boom')), path: '/t.jsonl' } }));
    expect(outcome).toMatchObject({ decision: 'message', mode: 'actionable' });
    expect(outcome.message).toContain('Restart the server');
    expect(outcome.files).toEqual([expect.objectContaining({ reason: 'fallback-all-uncommitted' })]);
    expect(outcome.timeline).toMatchObject({ hasData: false });
    expect(outcome.diagnostics).toEqual([expect.stringMatching(/transcript reader failed: boom; file-based instructions only/)]);
  });

  it('falls back to file-based instructions when the timeline has no data, or there is no transcript', async () => {
    const r = repo();
    r.write('server/app.ts', 'changed\n');
    const empty: TurnTimeline = {
      agent: 'claude',
      hasData: false,
      calls: [],
      checkpointsDelivered: 0,
      truncated: false,
      diagnostics: [{ level: 'warn', code: 'missing-file', message: 'no such file' }],
    };
    const noData = await getCheckpoint(request(r, { transcript: { reader: fakeReader(empty), path: '/t.jsonl' } }));
    expect(noData).toMatchObject({ decision: 'message', mode: 'actionable' });
    expect(noData.files.map((f) => f.reason)).toEqual(['fallback-all-uncommitted']);
    expect(noData.diagnostics).toEqual(['transcript: missing-file: no such file', 'transcript: no turn data; file-based instructions only']);

    const noTranscript = await getCheckpoint(request(r));
    expect(noTranscript.message).toBe(noData.message);
  });

  it('treats a reader that returns garbage like one that failed', async () => {
    const r = repo();
    r.write('server/app.ts', 'changed\n');
    const reader = fakeReader({ nonsense: true } as unknown as TurnTimeline);
    const outcome = await getCheckpoint(request(r, { transcript: { reader, path: '/t.jsonl' } }));
    expect(outcome).toMatchObject({ decision: 'message', mode: 'actionable' });
    expect(outcome.diagnostics[0]).toMatch(/not a timeline/);
  });

  it('outside a repository: no file axis, silent, mode not-a-repo', async () => {
    const d = makeTempDir();
    cleanups.push(d.remove);
    const reader = fakeReader(timeline([shell('pytest', 5_000, 1)]));
    const outcome = await getCheckpoint(request(d, { transcript: { reader, path: '/t.jsonl' } }));
    expect(outcome).toMatchObject({ decision: 'silent', mode: 'not-a-repo', files: [], git: { kind: 'not-a-repo' } });
    expect(outcome.diagnostics).toEqual([]);
  });

  it('delivers the generic message when git fails (here: hangs past the time limit)', async () => {
    const r = repo();
    r.write('server/app.ts', 'changed\n');
    const bin = join(r.dir, '..', 'fake-bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'git'), '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    const started = Date.now();
    const outcome = await getCheckpoint(
      request({ dir: r.dir, env: { ...r.env, PATH: `${bin}:/usr/bin:/bin` } }, { config: config({ ...SERVER, gitTimeoutMs: 300 }) }),
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outcome).toMatchObject({ decision: 'message', mode: 'generic-fallback', git: { kind: 'error' } });
    expect(outcome.message).toBe(`${config().messages.prefix}${config().messages.generic}`);
    expect(outcome.diagnostics).toEqual([expect.stringMatching(/^git: git (status|rev-parse) timed out after 300 ms$/)]);
  });

  it('delivers the generic message when the engine throws', async () => {
    const r = repo();
    r.write('server/app.ts', 'changed\n');
    // A call that is not an object makes the engine throw: a broken adapter must not break the stop.
    const reader = fakeReader(timeline([null as unknown as ToolCall]));
    const outcome = await getCheckpoint(request(r, { transcript: { reader, path: '/t.jsonl' } }));
    expect(outcome).toMatchObject({ decision: 'message', mode: 'generic-fallback' });
    expect(outcome.diagnostics).toEqual([expect.stringMatching(/^engine failed: /)]);
  });

  it('is silent when disabled, without reading git or the transcript', async () => {
    const r = repo();
    r.write('server/app.ts', 'changed\n');
    const reader = fakeReader(timeline([]));
    const outcome = await getCheckpoint(request(r, { config: config({ ...SERVER, enabled: false }), transcript: { reader, path: '/t.jsonl' } }));
    expect(outcome).toMatchObject({ decision: 'silent', mode: 'disabled', files: [] });
    expect(outcome.git).toBeUndefined();
    expect(reader.requests).toEqual([]);
  });

  it('loads the project configuration, and uses the defaults with a diagnostic when it is invalid', async () => {
    const r = repo();
    r.write('server/app.ts', 'changed\n');
    const env = { ...r.env, XDG_CACHE_HOME: join(r.dir, '..', 'cache') };
    const { config: _ignored, ...withoutConfig } = request(r, { env });

    writeFileSync(join(r.dir, '.agent-checkpoint.json'), JSON.stringify(SERVER));
    const valid = await getCheckpoint(withoutConfig);
    expect(valid).toMatchObject({ decision: 'message', mode: 'actionable' });
    expect(valid.configSources).toContainEqual({ kind: 'project-file', name: join(r.dir, '.agent-checkpoint.json') });

    writeFileSync(join(r.dir, '.agent-checkpoint.json'), '{ "categories": [ { "id": "server" } ] }');
    const invalid = await getCheckpoint(withoutConfig);
    expect(invalid.configSources.map((s) => s.kind)).toEqual(['default']);
    expect(invalid.diagnostics).toEqual([
      `config: ${join(r.dir, '.agent-checkpoint.json')}: invalid configuration, file ignored:`,
      expect.stringMatching(/^config: .*: categories\[0\]\.include: /),
    ]);
    expect(invalid.mode).not.toBe('generic-fallback');
  });

  it('never rejects, whatever the request', async () => {
    const broken = { agent: 'claude', cwd: 42 } as unknown as CheckpointRequest;
    const outcome = await getCheckpoint(broken);
    expect(outcome.decision === 'message' || outcome.decision === 'silent').toBe(true);
    expect(outcome.diagnostics.length).toBeGreaterThan(0);
  });

  it('the escape hatch gives the agent a command that really switches this session off', async () => {
    const r = repo();
    r.write('server/app.ts', 'changed\n');
    const stateDir = join(r.dir, '..', "state dir's");
    const env = { ...r.env, AGENT_CHECKPOINT_STATE_DIR: stateDir };
    const reader = fakeReader(timeline([read(join(r.dir, 'server/app.ts')), edit(join(r.dir, 'server/app.ts'))]));
    const outcome = await getCheckpoint(request(r, { env, sessionId: 'sess-9', transcript: { reader, path: '/t.jsonl' } }));
    const offFile = offSwitchPath(stateDir, { kind: 'session', sessionId: 'sess-9' });
    const command = /by running `([^`]+)`/.exec(outcome.message ?? '')?.[1];
    expect(command).toContain(offFile.replaceAll("'", "'\\''"));
    expect(outcome.message).toContain('agent-checkpoint-hook off --session sess-9');
    // Nothing was created by computing the message.
    expect((await readOffSwitch({ stateDir, sessionId: 'sess-9', env: {} })).off).toBe(false);
    // The agent runs the command with its shell tool (the switches directory does not exist yet).
    execFileSync('/bin/sh', ['-c', command!]);
    expect(await readOffSwitch({ stateDir, sessionId: 'sess-9', env: {} })).toMatchObject({ off: true, source: 'session', detail: offFile });
    expect((await readOffSwitch({ stateDir, sessionId: 'other', env: {} })).off).toBe(false);
  });
});
