import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { killSnippets, lastJsonLine, makeTempDir, makeTempGitRepo, runModuleSnippet, type TempGitRepo } from '@agent-checkpoint/core/test-support';
import type { CheckpointInput } from './checkpoint-schema.ts';
import { createCheckpointStore, type CheckpointStore, type CheckpointStoreOptions } from './checkpoint-store.ts';

const HERE = dirname(fileURLToPath(import.meta.url));

const cleanups: (() => void)[] = [];
afterEach(() => {
  killSnippets();
  while (cleanups.length > 0) cleanups.pop()?.();
});

function repo(options?: { commits?: boolean }): TempGitRepo {
  const r = makeTempGitRepo(options);
  cleanups.push(r.remove);
  return r;
}

interface Harness {
  readonly store: CheckpointStore;
  readonly logs: string[];
  readonly stateDir: string;
  tick(): void;
}

/** A store on `dir` with a captured logger and a clock that advances one minute per `tick()`. */
function storeFor(r: { dir: string; env: Readonly<Record<string, string | undefined>> }, extra: Partial<CheckpointStoreOptions> = {}): Harness {
  const logs: string[] = [];
  let minute = 0;
  const store = createCheckpointStore({
    projectRoot: r.dir,
    env: r.env,
    logger: (message, error) => logs.push(error === undefined ? message : `${message} | ${error instanceof Error ? error.message : String(error)}`),
    now: () => new Date(Date.UTC(2026, 0, 29, 10, 30 + minute)),
    ...extra,
  });
  return { store, logs, stateDir: join(r.dir, '.agent-checkpoint', 'state'), tick: () => (minute += 1) };
}

const blank = (command: string, feature?: string): CheckpointInput => ({
  command,
  ...(feature !== undefined ? { feature } : {}),
  state: { current_phase: null, completed_phases: [], pending_phases: [] },
  phases: {},
});

describe('save (seed 002)', { timeout: 60_000 }, () => {
  it('timestamps are ISO 8601: a save with another form is refused, a file with one is not a checkpoint', async () => {
    const r = repo();
    const h = storeFor(r);
    expect(await h.store.save('design', { ...blank('design'), started_at: 'yesterday' })).toBe(false);
    expect(h.logs.join('\n')).toMatch(/Invalid checkpoint: started_at: /);
    expect(existsSync(join(h.stateDir, 'design-checkpoint.json'))).toBe(false);
    const phase = { ...blank('design'), phases: { build: { status: 'in_progress' as const, updated_at: '29/01/2026 10:30' } } };
    expect(await h.store.save('design', phase)).toBe(false);
    expect(await h.store.save('design', { ...blank('design'), started_at: '2026-01-29T12:30:00+02:00' })).toBe(true);
    const path = join(h.stateDir, 'design-checkpoint.json');
    const saved = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    writeFileSync(path, JSON.stringify({ ...saved, updated_at: 'Thu Jan 29 2026' }));
    expect(await h.store.load('design')).toBeNull();
  });

  it('creates <repo>/.agent-checkpoint/state/<command>-<feature>.json with version, HEAD and timestamps', async () => {
    const r = repo();
    const h = storeFor(r);
    expect(await h.store.save('design', blank('design', 'test-feature'), 'test-feature')).toBe(true);
    const path = join(h.stateDir, 'design-test-feature.json');
    const text = readFileSync(path, 'utf8');
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    expect(JSON.parse(text)).toEqual({
      command: 'design',
      feature: 'test-feature',
      version: 1,
      head_commit: r.git(['rev-parse', 'HEAD']).trim(),
      started_at: '2026-01-29T10:30:00.000Z',
      updated_at: '2026-01-29T10:30:00.000Z',
      state: { current_phase: null, completed_phases: [], pending_phases: [] },
      phases: {},
    });
    expect(h.logs).toEqual([]);
  });

  it('names the file <command>-checkpoint.json without a feature, and keeps the state git-ignored', async () => {
    const r = repo();
    const h = storeFor(r);
    expect(await h.store.save('implement', blank('implement'))).toBe(true);
    expect(readdirSync(h.stateDir)).toEqual(['implement-checkpoint.json']);
    expect(await h.store.pathFor('implement')).toBe(join(h.stateDir, 'implement-checkpoint.json'));
    expect(r.git(['status', '--porcelain', '--untracked-files=all'])).toBe('');
  });

  it('finds the repository root from a subdirectory', async () => {
    const r = repo();
    mkdirSync(join(r.dir, 'packages', 'app'), { recursive: true });
    const h = storeFor({ dir: join(r.dir, 'packages', 'app'), env: r.env });
    expect(await h.store.save('ship', blank('ship'))).toBe(true);
    expect(existsSync(join(r.dir, '.agent-checkpoint', 'state', 'ship-checkpoint.json'))).toBe(true);
  });

  it('rejects a phase or state summary over 500 tokens, writing nothing', async () => {
    const r = repo();
    const h = storeFor(r);
    const long = Array(501).fill('word').join(' ');
    const withPhase: CheckpointInput = { ...blank('design'), phases: { research: { status: 'complete', context_summary: long } } };
    expect(await h.store.save('design', withPhase)).toBe(false);
    const withState: CheckpointInput = { ...blank('design'), state: { ...blank('design').state, context_summary: long } };
    expect(await h.store.save('design', withState)).toBe(false);
    expect(h.logs).toEqual([
      'Context summary exceeds 500 token limit (actual: 501 tokens)',
      'Context summary exceeds 500 token limit (actual: 501 tokens)',
    ]);
    expect(existsSync(h.stateDir)).toBe(false);
  });

  it('uses a configured summary limit and state directory', async () => {
    const r = repo();
    const h = storeFor(r, { summaryTokenLimit: 3, stateDir: 'var/state' });
    expect(await h.store.save('design', { ...blank('design'), phases: { a: { status: 'complete', context_summary: 'one two three four' } } })).toBe(false);
    expect(h.logs).toEqual(['Context summary exceeds 3 token limit (actual: 4 tokens)']);
    expect(await h.store.save('design', { ...blank('design'), phases: { a: { status: 'complete', context_summary: 'one two three' } } })).toBe(true);
    expect(existsSync(join(r.dir, 'var', 'state', 'design-checkpoint.json'))).toBe(true);
  });

  it('records a null HEAD without commits and outside git', async () => {
    const unborn = repo({ commits: false });
    const a = storeFor(unborn);
    expect(await a.store.save('start', blank('start'))).toBe(true);
    expect((await a.store.load('start'))?.head_commit).toBeNull();

    const plain = makeTempDir();
    cleanups.push(plain.remove);
    const b = storeFor(plain);
    expect(await b.store.save('start', blank('start'))).toBe(true);
    expect(JSON.parse(readFileSync(join(plain.dir, '.agent-checkpoint', 'state', 'start-checkpoint.json'), 'utf8')).head_commit).toBeNull();
    expect(b.logs).toEqual([]);
  });

  it('never throws: an unwritable state directory and invalid names return false with a diagnostic', async () => {
    const r = repo();
    r.write('.agent-checkpoint/state', 'a file, not a directory');
    const h = storeFor(r);
    expect(await h.store.save('design', blank('design'))).toBe(false);
    expect(h.logs[0]).toMatch(/^Failed to save checkpoint \| /);
    expect(await h.store.save('../escape', blank('x'))).toBe(false);
    expect(await h.store.save('design', blank('design'), 'a/b')).toBe(false);
    expect(await h.store.load('.hidden')).toBeNull();
    expect(h.logs.slice(1)).toEqual([
      'Invalid checkpoint name: "../escape"',
      'Invalid checkpoint name: "design-a/b"',
      'Invalid checkpoint name: ".hidden"',
    ]);
  });
});

describe('load (seed 002)', { timeout: 60_000 }, () => {
  it('returns null silently when there is no checkpoint', async () => {
    const h = storeFor(repo());
    expect(await h.store.load('design')).toBeNull();
    expect(h.logs).toEqual([]);
  });

  it('reports a corrupt file with the seed\'s message and returns null', async () => {
    const r = repo();
    const h = storeFor(r);
    mkdirSync(h.stateDir, { recursive: true });
    const path = join(h.stateDir, 'design-checkpoint.json');
    writeFileSync(path, '{"command": "design", ');
    expect(await h.store.load('design')).toBeNull();
    expect(h.logs).toHaveLength(1);
    expect(h.logs[0]).toMatch(new RegExp(`^Checkpoint file exists but is corrupt: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\| `));
  });

  it('treats a file of the wrong shape or version as corrupt', async () => {
    const r = repo();
    const h = storeFor(r);
    mkdirSync(h.stateDir, { recursive: true });
    writeFileSync(join(h.stateDir, 'a-checkpoint.json'), JSON.stringify({ command: 'a', version: 2 }));
    writeFileSync(join(h.stateDir, 'b-checkpoint.json'), '[]');
    expect(await h.store.load('a')).toBeNull();
    expect(await h.store.load('b')).toBeNull();
    expect(h.logs.every((l) => l.startsWith('Checkpoint file exists but is corrupt: '))).toBe(true);
    expect(h.logs[0]).toContain('version');
  });

  it('warns with the seed\'s text when HEAD moved since the save, and still returns the checkpoint', async () => {
    const r = repo();
    const h = storeFor(r);
    await h.store.save('implement', blank('implement'));
    const saved = r.git(['rev-parse', 'HEAD']).trim();
    r.write('next.txt', 'n\n');
    r.git(['add', 'next.txt']);
    r.commit('next');
    const current = r.git(['rev-parse', 'HEAD']).trim();
    const checkpoint = await h.store.load('implement');
    expect(checkpoint?.command).toBe('implement');
    expect(h.logs).toEqual([`Checkpoint is stale (saved at ${saved.slice(0, 7)}, current HEAD is ${current.slice(0, 7)})`]);
  });

  it('keeps unknown fields through a load and save', async () => {
    const r = repo();
    const h = storeFor(r);
    await h.store.save('ship', { ...blank('ship'), custom: { keep: true }, gate: { ship_allowed: false, blockers: ['tests'] } });
    const loaded = await h.store.load('ship');
    expect(loaded?.['custom']).toEqual({ keep: true });
    expect(loaded?.gate).toEqual({ ship_allowed: false, blockers: ['tests'] });
  });
});

describe('updatePhase / complete / getResumePoint (seed 002)', { timeout: 60_000 }, () => {
  it('creates the checkpoint, adds timestamps and keeps started_at on later updates', async () => {
    const r = repo();
    const h = storeFor(r);
    expect(await h.store.updatePhase('design', 'research', { status: 'in_progress' }, 'feat')).toBe(true);
    h.tick();
    expect(await h.store.updatePhase('design', 'research', { context_summary: 'Analyzed patterns' }, 'feat')).toBe(true);
    const c = await h.store.load('design', 'feat');
    expect(c?.started_at).toBe('2026-01-29T10:30:00.000Z');
    expect(c?.updated_at).toBe('2026-01-29T10:31:00.000Z');
    expect(c?.phases['research']).toEqual({
      status: 'in_progress',
      started_at: '2026-01-29T10:30:00.000Z',
      updated_at: '2026-01-29T10:31:00.000Z',
      context_summary: 'Analyzed patterns',
    });
    expect(c?.state.current_phase).toBe('research');
    expect(c?.feature).toBe('feat');
  });

  it('moves phases between the lists as the seed example shows', async () => {
    const r = repo();
    const h = storeFor(r);
    await h.store.save('implement', {
      ...blank('implement', 'checkpoint-infrastructure'),
      state: { current_phase: null, completed_phases: [], pending_phases: ['research', 'design', 'implementation', 'validation', 'documentation'] },
    }, 'checkpoint-infrastructure');
    const up = (phase: string, data: Parameters<CheckpointStore['updatePhase']>[2]) =>
      h.store.updatePhase('implement', phase, data, 'checkpoint-infrastructure');
    await up('research', { status: 'in_progress' });
    await up('research', { status: 'complete', context_summary: 'Analyzed existing codebase patterns' });
    await up('design', { status: 'complete', context_summary: 'Designed 5-file architecture', files_created: ['specs/req.md'] });
    await up('implementation', { status: 'in_progress', context_summary: 'in progress: checkpoint-manager' });
    const c = await h.store.load('implement', 'checkpoint-infrastructure');
    expect(c?.state).toEqual({
      current_phase: 'implementation',
      completed_phases: ['research', 'design'],
      pending_phases: ['validation', 'documentation'],
    });
    expect(await h.store.getResumePoint('implement', 'checkpoint-infrastructure')).toEqual({
      phase: 'implementation',
      summary: 'Designed 5-file architecture',
    });

    // A failure keeps the current phase (resume there); a skip removes it from pending.
    await up('implementation', { status: 'failed', error: 'tests failed' });
    await up('documentation', { status: 'skipped' });
    const failed = await h.store.load('implement', 'checkpoint-infrastructure');
    expect(failed?.state.current_phase).toBe('implementation');
    expect(failed?.state.pending_phases).toEqual(['validation']);
    expect(failed?.phases['implementation']?.error).toBe('tests failed');
  });

  it('rejects an over-long summary in updatePhase and leaves the file as it was', async () => {
    const r = repo();
    const h = storeFor(r);
    await h.store.updatePhase('design', 'a', { status: 'in_progress' });
    const path = join(h.stateDir, 'design-checkpoint.json');
    const before = readFileSync(path, 'utf8');
    expect(await h.store.updatePhase('design', 'a', { context_summary: Array(600).fill('w').join(' ') })).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(h.logs).toEqual(['Context summary exceeds 500 token limit (actual: 600 tokens)']);
  });

  it('moves a corrupt file aside instead of silently replacing it', async () => {
    const r = repo();
    const h = storeFor(r);
    mkdirSync(h.stateDir, { recursive: true });
    writeFileSync(join(h.stateDir, 'design-checkpoint.json'), 'not json');
    expect(await h.store.updatePhase('design', 'a', { status: 'in_progress' })).toBe(true);
    const names = readdirSync(h.stateDir).sort();
    expect(names).toEqual(['design-checkpoint.json', 'design-checkpoint.json.corrupt-2026-01-29T10-30-00-000Z']);
    expect(readFileSync(join(h.stateDir, names[1] as string), 'utf8')).toBe('not json');
  });

  it('completes: no current phase, nothing pending, completed_at; the resume point is then empty', async () => {
    const r = repo();
    const h = storeFor(r);
    await h.store.save('review', { ...blank('review'), state: { current_phase: null, completed_phases: [], pending_phases: ['analysis', 'feedback'] } });
    await h.store.updatePhase('review', 'analysis', { status: 'in_progress' });
    h.tick();
    expect(await h.store.complete('review')).toBe(true);
    const c = await h.store.load('review');
    expect(c?.state.current_phase).toBeNull();
    expect(c?.state.pending_phases).toEqual([]);
    expect(c?.completed_at).toBe('2026-01-29T10:31:00.000Z');
    expect(await h.store.getResumePoint('review')).toEqual({ phase: null, summary: null });
  });

  it('cannot complete a missing checkpoint; the resume point of nothing is empty', async () => {
    const h = storeFor(repo());
    expect(await h.store.complete('nothing')).toBe(false);
    expect(h.logs).toEqual(['No checkpoint to complete for nothing']);
    expect(await h.store.getResumePoint('nothing')).toEqual({ phase: null, summary: null });
  });

  it('writes atomically: no temp files are left in the state directory', async () => {
    const r = repo();
    const h = storeFor(r);
    for (let i = 0; i < 5; i += 1) await h.store.updatePhase('start', `p${i}`, { status: 'complete', context_summary: `phase ${i}` });
    expect(readdirSync(h.stateDir)).toEqual(['start-checkpoint.json']);
    expect((await h.store.load('start'))?.state.completed_phases).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
  });
});

describe('the default logger', { timeout: 60_000 }, () => {
  it('writes one line to stderr', async () => {
    const r = repo();
    const writes: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => {
      writes.push(chunk);
      return true;
    }) as typeof process.stderr.write;
    try {
      const store = createCheckpointStore({ projectRoot: r.dir, env: r.env });
      mkdirSync(join(r.dir, '.agent-checkpoint', 'state'), { recursive: true });
      writeFileSync(join(r.dir, '.agent-checkpoint', 'state', 'x-checkpoint.json'), '{');
      expect(await store.load('x')).toBeNull();
    } finally {
      process.stderr.write = original;
    }
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^agent-checkpoint: Checkpoint file exists but is corrupt: .*x-checkpoint\.json: .+\n$/);
  });
});

describe('files that are not checkpoints where a checkpoint should be', { timeout: 60_000 }, () => {
  it('a directory: load reports it as unusable, an update moves it aside', async () => {
    const r = repo();
    const h = storeFor(r);
    mkdirSync(join(h.stateDir, 'design-checkpoint.json'), { recursive: true });
    expect(await h.store.load('design')).toBeNull();
    expect(h.logs).toEqual([`Checkpoint file exists but is unusable: ${join(h.stateDir, 'design-checkpoint.json')} | not a regular file (a FIFO, socket or device)`]);
    expect(await h.store.updatePhase('design', 'a', { status: 'in_progress' })).toBe(true);
    expect(readdirSync(h.stateDir).sort()).toEqual(['design-checkpoint.json', 'design-checkpoint.json.corrupt-2026-01-29T10-30-00-000Z']);
    expect((await h.store.getResumePoint('design')).phase).toBe('a');
  });

  it('a file over 16 MiB is not read: reported as unusable', async () => {
    const r = repo();
    const h = storeFor(r);
    mkdirSync(h.stateDir, { recursive: true });
    writeFileSync(join(h.stateDir, 'big-checkpoint.json'), Buffer.alloc(16 * 1024 * 1024 + 1, 0x20));
    expect(await h.store.load('big')).toBeNull();
    expect(h.logs).toEqual([`Checkpoint file exists but is unusable: ${join(h.stateDir, 'big-checkpoint.json')} | larger than 16777216 bytes`]);
  });

  // The `state` command's store functions on a FIFO, in a child process: a blocking open would hang only
  // the child, and the test's timeout is the deadline.
  it.skipIf(process.platform === 'win32')('a FIFO: load, resume point and update return at once with a diagnostic; the update moves it aside', async () => {
    const r = repo();
    const stateDir = join(r.dir, '.agent-checkpoint', 'state');
    mkdirSync(stateDir, { recursive: true });
    execFileSync('mkfifo', [join(stateDir, 'design-checkpoint.json')]);
    const script = `
      const { createCheckpointStore } = await import(${JSON.stringify(join(HERE, 'checkpoint-store.ts'))});
      const logs = [];
      const store = createCheckpointStore({
        projectRoot: ${JSON.stringify(r.dir)},
        env: ${JSON.stringify(r.env)},
        logger: (message, error) => logs.push(error === undefined ? message : message + ' | ' + error.message),
        now: () => new Date(Date.UTC(2026, 0, 29, 10, 30)),
      });
      const loaded = await store.load('design');
      const resume = await store.getResumePoint('design');
      const updated = await store.updatePhase('design', 'a', { status: 'in_progress' });
      process.stdout.write(JSON.stringify({ loaded, resume, updated, logs }) + '\\n');`;
    const run = await runModuleSnippet(script, HERE);
    expect(run.code, run.stderr).toBe(0);
    const out = lastJsonLine<{ loaded: unknown; resume: unknown; updated: boolean; logs: string[] }>(run.stdout);
    const unusable = `Checkpoint file exists but is unusable: ${join(stateDir, 'design-checkpoint.json')} | not a regular file (a FIFO, socket or device)`;
    expect(out).toEqual({ loaded: null, resume: { phase: null, summary: null }, updated: true, logs: [unusable, unusable, unusable, 'Moved the corrupt checkpoint to ' + join(stateDir, 'design-checkpoint.json.corrupt-2026-01-29T10-30-00-000Z') + '; starting a new one'] });
    // The FIFO is kept aside (nothing the user made is deleted); the new checkpoint is a regular file.
    expect(lstatSync(join(stateDir, 'design-checkpoint.json.corrupt-2026-01-29T10-30-00-000Z')).isFIFO()).toBe(true);
    expect(JSON.parse(readFileSync(join(stateDir, 'design-checkpoint.json'), 'utf8')).state.current_phase).toBe('a');
  });
});
