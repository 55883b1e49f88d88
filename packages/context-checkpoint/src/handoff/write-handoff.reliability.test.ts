import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createCheckpointStore } from '../checkpoint-state/checkpoint-store.ts';
import { checkPlanDrift } from '@agent-checkpoint/core';
import { resolveContextCheckpointConfig } from '../config/context-sections.ts';
import { writeHandoff } from './write-handoff.ts';

// No path traversal through the names agent-checkpoint turns into paths (docs/reliability.md):
// handoff directories (config), checkpoint names (commands and features), plan slugs
// (AGENT_CHECKPOINT_SLUG, planDrift.slug) — and no write through a symlink a repository carries.
// Session ids are covered in state/claim-checkpoint.reliability.test.ts.

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'ac-rel-paths-')));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  // Exactly ".." or "../…" leaves the root; a name such as "..!" is an ordinary entry inside it.
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/** Hostile path-like strings. */
const hostilePath = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.array(fc.constantFrom('..', '.', '', '/', '\\', 'a', '..\\..', 'C:', '~', '%2e%2e', '\u0000', 'x/../..', '/etc'), { minLength: 1, maxLength: 6 }).map((parts) => parts.join('/')),
);

describe('handoff.dir from configuration', () => {
  it('any value that is absolute or leaves the repository is dropped (property)', () => {
    fc.assert(
      fc.property(hostilePath, (dir) => {
        const resolved = resolveContextCheckpointConfig([{ handoff: { dir } }]);
        const root = '/repo';
        expect(inside(root, join(root, resolved.handoff.dir)), `${JSON.stringify(dir)} → ${resolved.handoff.dir}`).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('checkpoint store names (commands and features)', () => {
  it('every name that becomes a path lies inside the state directory (property)', async () => {
    const root = tempDir();
    const stateDir = join(root, 'state');
    const store = createCheckpointStore({ projectRoot: root, stateDir, logger: () => undefined, gitTimeoutMs: 2_000 });
    await fc.assert(
      fc.asyncProperty(hostilePath, fc.option(hostilePath, { nil: undefined }), async (command, feature) => {
        const path = await store.pathFor(command, feature ?? null);
        if (path !== undefined) expect(inside(stateDir, path) && path !== stateDir, `${command} / ${feature} → ${path}`).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('plan slugs', () => {
  it('a plan outside the project root is never read, whatever the slug or the path template (property)', () => {
    const root = '/project/root';
    fc.assert(
      fc.property(hostilePath, fc.constantFrom('plans/{slug}/plan.md', 'docs/{slug}.md', '{slug}', '{slug}/../{slug}/x.md'), (slug, template) => {
        const reads: string[] = [];
        checkPlanDrift(['src/a.ts'], { projectRoot: root, workingSlug: slug }, { planDrift: { path: template } } as never, {}, (path) => {
          reads.push(path);
          return '## Files to Change\n- `elsewhere.ts`\n';
        });
        for (const path of reads) expect(inside(root, path), `slug ${JSON.stringify(slug)} read ${path}`).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('symlinks carried by a repository', () => {
  it('a `.agent-checkpoint` symlink pointing outside the repository: no handoff is written outside it', async () => {
    const base = tempDir();
    const repo = join(base, 'repo');
    const outside = join(base, 'outside');
    mkdirSync(repo);
    mkdirSync(outside);
    // A cloned repository can carry this symlink (git stores symlinks).
    symlinkSync('../outside', join(repo, '.agent-checkpoint'));
    const result = await writeHandoff({
      projectRoot: repo,
      data: { agent: 'claude', projectRoot: repo, trigger: { kind: 'manual', reason: 'test' }, memoryFiles: [] },
      now: new Date('2026-01-07T11:45:00.000Z'),
    });
    expect(readdirSync(outside), `written outside the repository: ${JSON.stringify(result)}`).toEqual([]);
    expect(result.ok).toBe(false);
  });

  it('a `.agent-checkpoint` symlink pointing outside: the checkpoint store writes no state outside the repository', async () => {
    const base = tempDir();
    const repo = join(base, 'repo');
    const outside = join(base, 'outside');
    mkdirSync(repo);
    mkdirSync(outside);
    symlinkSync('../outside', join(repo, '.agent-checkpoint'));
    const problems: string[] = [];
    const store = createCheckpointStore({ projectRoot: repo, logger: (message) => problems.push(message), gitTimeoutMs: 2_000 });
    const saved = await store.save('build', { phases: {}, current_phase: null, completed_phases: [], pending_phases: [] } as never);
    expect(readdirSync(outside), `state written outside the repository (saved: ${saved})`).toEqual([]);
    expect(saved).toBe(false);
    expect(problems.length).toBeGreaterThan(0);
  });

  it('a symlinked component of a custom handoff.dir pointing outside: no handoff is written outside it', async () => {
    const base = tempDir();
    const repo = join(base, 'repo');
    const outside = join(base, 'outside');
    mkdirSync(repo);
    mkdirSync(outside);
    symlinkSync(outside, join(repo, 'docs'));
    const result = await writeHandoff({
      projectRoot: repo,
      dir: 'docs/handoffs',
      data: { agent: 'claude', projectRoot: repo, trigger: { kind: 'manual', reason: 'test' }, memoryFiles: [] },
      now: new Date('2026-01-07T11:45:00.000Z'),
    });
    expect(existsSync(join(outside, 'handoffs')), `written outside the repository: ${JSON.stringify(result)}`).toBe(false);
    expect(result.ok).toBe(false);
  });
});

describe('handoff.dir: dot-and-space segments', () => {
  it('drops ".. " and "..." (Windows strips trailing dots and spaces, making them "..")', () => {
    for (const dir of ['.. ', '...', 'a/.. /b', ' ..']) {
      expect(resolveContextCheckpointConfig([{ handoff: { dir } }]).handoff.dir, dir).toBe(resolveContextCheckpointConfig([]).handoff.dir);
    }
  });
});
