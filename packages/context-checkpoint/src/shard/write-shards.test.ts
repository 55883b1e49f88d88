import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planShards, type ItemEstimator } from './plan-shards.ts';
import { readShardProgress } from './read-shard-progress.ts';
import { ShardPathError, shardDirFor } from './shard-paths.ts';
import { writeShards } from './write-shards.ts';

let root: string;
let project: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ac-shards-'));
  project = join(root, 'repo');
  mkdirSync(project);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const PLAN_TEXT = [
  '# Plan: billing export',
  '- [x] Schema for `exports` table',
  ...Array.from({ length: 10 }, (_, i) => `- [ ] Export step ${i + 1}: write \`src/export/step-${i + 1}.ts\``),
  '',
].join('\n');
const estimator: ItemEstimator = () => 14_000;
const plan = () => planShards({ planText: PLAN_TEXT, budget: { window: 200_000 }, estimator });

describe('writeShards (SHD-001)', () => {
  it('writes NN-<slug>.md files with front matter under .agent-checkpoint/shards/<plan slug>, git-ignored', async () => {
    const result = await writeShards({ projectRoot: project, planPath: 'docs/PLAN.md', plan: plan() });
    expect(result.dir).toBe('.agent-checkpoint/shards/plan');
    expect(result.written).toEqual([
      '.agent-checkpoint/shards/plan/01-export-step-1-write-src-export-step-1-ts.md',
      '.agent-checkpoint/shards/plan/02-export-step-4-write-src-export-step-4-ts.md',
      '.agent-checkpoint/shards/plan/03-export-step-8-write-src-export-step-8-ts.md',
    ]);
    expect(result.kept).toEqual([]);
    expect(readFileSync(join(project, '.agent-checkpoint/.gitignore'), 'utf8')).toContain('*');
    const first = readFileSync(join(project, result.written[0] as string), 'utf8');
    expect(first).toBe(
      [
        '---',
        'shard: 1',
        'of: 3',
        'plan: "docs/PLAN.md"',
        'items: 3',
        'estimate_tokens: 42000',
        'estimate_percent: 21',
        'status: pending',
        '---',
        '# Shard 1 of 3: Export step 1: write `src/export/step-1.ts`',
        '',
        'Work through these items of `docs/PLAN.md` in order, checking each off here (`- [x]`) as it is done. Estimated ~21 % of the context window. When all are checked, hand off and start the next shard in a fresh session.',
        '',
        '- [ ] Export step 1: write `src/export/step-1.ts`',
        '- [ ] Export step 2: write `src/export/step-2.ts`',
        '- [ ] Export step 3: write `src/export/step-3.ts`',
        '',
      ].join('\n'),
    );
    expect(readFileSync(join(project, result.written[2] as string), 'utf8')).toContain('This is the last shard.');
  });

  it('never overwrites an existing file: an edited shard is kept and reported', async () => {
    const first = await writeShards({ projectRoot: project, planPath: 'PLAN.md', plan: plan() });
    const edited = join(project, first.written[0] as string);
    writeFileSync(edited, 'my notes\n');
    const second = await writeShards({ projectRoot: project, planPath: 'PLAN.md', plan: plan() });
    expect(second.written).toEqual([]);
    expect(second.kept).toEqual(first.written);
    expect(readFileSync(edited, 'utf8')).toBe('my notes\n');
  });

  it('a symlink planted as a shard file is not followed (kept, its target untouched)', async () => {
    const dir = join(project, 'shards/plan');
    mkdirSync(dir, { recursive: true });
    const victim = join(root, 'victim.md');
    writeFileSync(victim, 'secret\n');
    symlinkSync(victim, join(dir, '01-export-step-1-write-src-export-step-1-ts.md'));
    const result = await writeShards({ projectRoot: project, planPath: 'PLAN.md', plan: plan(), dir: 'shards' });
    expect(result.kept).toEqual(['shards/plan/01-export-step-1-write-src-export-step-1-ts.md']);
    expect(result.written).toHaveLength(2);
    expect(readFileSync(victim, 'utf8')).toBe('secret\n');
  });

  it('refuses a configured directory that is absolute, leaves the project, or crosses a symlink', async () => {
    for (const dir of ['/tmp/shards', '../elsewhere', 'a/../../b', '', '.']) {
      await expect(writeShards({ projectRoot: project, planPath: 'PLAN.md', plan: plan(), dir })).rejects.toThrow(ShardPathError);
    }
    const outside = join(root, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, join(project, 'linked'));
    await expect(writeShards({ projectRoot: project, planPath: 'PLAN.md', plan: plan(), dir: 'linked' })).rejects.toThrow(/symlink/);
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(join(root, 'elsewhere'))).toBe(false);
  });

  it('the plan slug comes from the plan file name', () => {
    expect(shardDirFor('specs/ANV-123 OAuth Login.md')).toBe('.agent-checkpoint/shards/anv-123-oauth-login');
    expect(shardDirFor('.md', 'work/shards')).toBe('work/shards/plan');
  });
});

describe('readShardProgress (SHD-004)', () => {
  it('pending → in-progress → done, from checks in the shard files and in the plan', async () => {
    const { dir, written } = await writeShards({ projectRoot: project, planPath: 'PLAN.md', plan: plan() });
    let progress = readShardProgress({ projectRoot: project, dir, planText: PLAN_TEXT });
    expect(progress.shards.map((s) => [s.number, s.items, s.done, s.status])).toEqual([
      [1, 3, 0, 'pending'],
      [2, 4, 0, 'pending'],
      [3, 3, 0, 'pending'],
    ]);
    expect(progress.current?.number).toBe(1);

    // The agent checks off two items in shard 1, and one item of shard 2 in the plan itself.
    const shard1 = join(project, written[0] as string);
    writeFileSync(shard1, readFileSync(shard1, 'utf8').replace('- [ ] Export step 1', '- [x] Export step 1').replace('- [ ] Export step 2', '- [X] Export step 2'));
    const plan2 = PLAN_TEXT.replace('- [ ] Export step 5', '- [x] Export step 5');
    progress = readShardProgress({ projectRoot: project, dir, planText: plan2 });
    expect(progress.shards.map((s) => [s.done, s.status])).toEqual([
      [2, 'in-progress'],
      [1, 'in-progress'],
      [0, 'pending'],
    ]);
    expect([progress.items, progress.done]).toEqual([10, 3]);

    // Everything of shard 1 done in the plan; shard 3 marked in-progress by its front matter.
    const shard3 = join(project, written[2] as string);
    writeFileSync(shard3, readFileSync(shard3, 'utf8').replace('status: pending', 'status: in-progress'));
    const plan3 = plan2.replace('- [ ] Export step 3', '- [x] Export step 3');
    progress = readShardProgress({ projectRoot: project, dir, planText: plan3 });
    expect(progress.shards.map((s) => s.status)).toEqual(['done', 'in-progress', 'in-progress']);
    expect(progress.current?.number).toBe(2);
  });

  it('a hostile front matter (huge padded values) is read in linear time', async () => {
    const { dir, written } = await writeShards({ projectRoot: project, planPath: 'PLAN.md', plan: plan() });
    const shard1 = join(project, written[0] as string);
    writeFileSync(shard1, readFileSync(shard1, 'utf8').replace('status: pending', `status:${' '.repeat(100_000)}in-progress${' '.repeat(100_000)}x`));
    const started = performance.now();
    const progress = readShardProgress({ projectRoot: project, dir });
    // A hang bound, not a speed target (the backtracking regex took over a minute; linear takes milliseconds).
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(progress.shards[0]?.status).toBe('pending');
  });

  it('a missing directory is no shards; symlinked files are problems, not progress; a symlinked directory is refused', async () => {
    expect(readShardProgress({ projectRoot: project, dir: '.agent-checkpoint/shards/none' })).toEqual({ shards: [], items: 0, done: 0, problems: [] });
    const { dir } = await writeShards({ projectRoot: project, planPath: 'PLAN.md', plan: plan() });
    const victim = join(root, 'victim.md');
    writeFileSync(victim, '- [x] a\n- [x] b\n');
    symlinkSync(victim, join(project, dir, '04-planted.md'));
    const progress = readShardProgress({ projectRoot: project, dir });
    expect(progress.shards).toHaveLength(3);
    expect(progress.problems).toEqual([`${dir}/04-planted.md: a symlink (not followed)`]);

    const outside = join(root, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, '01-x.md'), '- [x] a\n');
    symlinkSync(outside, join(project, 'linked'));
    expect(lstatSync(join(project, 'linked')).isSymbolicLink()).toBe(true);
    expect(() => readShardProgress({ projectRoot: project, dir: 'linked' })).toThrow(ShardPathError);
    expect(() => readShardProgress({ projectRoot: project, dir: '../outside' })).toThrow(ShardPathError);
  });
});
