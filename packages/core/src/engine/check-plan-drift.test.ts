import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { context, files, teleclaudeConfig, timeline } from './build-test-timeline.ts';
import { checkPlanDrift } from './check-plan-drift.ts';
import { parsePlanFiles } from './parse-plan-files.ts';
import { runHeuristics } from './run-heuristics.ts';

const PLAN = `# Plan

## Files to Change

| File                                   | Change                  |
| -------------------------------------- | ----------------------- |
| \`teleclaude/hooks/checkpoint.py\` (NEW) | Shared builder          |
| \`teleclaude/utils/transcript.py\`       | Tool-call extraction    |
| tests/unit/test_checkpoint_builder.py (NEW) | Engine tests        |

## Task Sequence

Some prose mentioning \`other/file.py\`.
`;

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ac-plan-'));
  mkdirSync(join(root, 'todos', 'my-slug'), { recursive: true });
  writeFileSync(join(root, 'todos', 'my-slug', 'implementation-plan.md'), PLAN);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const tc = teleclaudeConfig();
const drift = (paths: string[], slug: string | undefined, env: Record<string, string> = {}) =>
  checkPlanDrift(paths, { projectRoot: root, ...(slug !== undefined ? { workingSlug: slug } : {}) }, tc, env).map((o) => o.text);

describe('working slug (seed Task 8)', () => {
  test('slug drift emits observation', () => {
    expect(drift(['teleclaude/core/unrelated.py'], 'my-slug')).toEqual([
      'Active work item `my-slug` expects changes in different files — verify you are working on the right task',
    ]);
  });

  test('slug partial overlap suppressed', () => {
    expect(drift(['teleclaude/utils/transcript.py', 'teleclaude/core/unrelated.py'], 'my-slug')).toEqual([]);
  });

  test('no slug skips check', () => {
    expect(drift(['teleclaude/core/unrelated.py'], undefined)).toEqual([]);
  });

  test('missing plan skips check', () => {
    expect(drift(['teleclaude/core/unrelated.py'], 'other-slug')).toEqual([]);
  });

  test('slug overlap ignores new annotation in plan', () => {
    expect(drift(['teleclaude/hooks/checkpoint.py'], 'my-slug')).toEqual([]);
    expect(drift(['tests/unit/test_checkpoint_builder.py'], 'my-slug')).toEqual([]);
  });

  test('slug from AGENT_CHECKPOINT_SLUG', () => {
    expect(drift(['x.py'], undefined, { AGENT_CHECKPOINT_SLUG: 'my-slug' })).toHaveLength(1);
  });

  test('slugs that would escape the project are ignored', () => {
    expect(drift(['x.py'], '../my-slug')).toEqual([]);
  });

  test('runs inside runHeuristics with the context slug', () => {
    const r = runHeuristics(files(['teleclaude/core/unrelated.py']), timeline([]), { ...context(), projectRoot: root, workingSlug: 'my-slug' }, tc);
    expect(r.observations.map((o) => o.kind)).toContain('plan-drift');
  });
});

describe('parsePlanFiles', () => {
  test('reads the file column of tables, backticked or not, dropping annotations', () => {
    expect(parsePlanFiles(PLAN)).toEqual([
      'teleclaude/hooks/checkpoint.py',
      'teleclaude/utils/transcript.py',
      'tests/unit/test_checkpoint_builder.py',
    ]);
  });

  test('finds the file column wherever it is, and bullets under a files heading', () => {
    const md = `| Step | Path | Why |\n|---|:---|---|\n| 1 | [src/a.ts](src/a.ts) | x |\n| 2 | \`./src/b.ts\`, \`src/c.ts\` | y |\n\n### Files touched\n- \`lib/d.py\` — helper\n* plain text\n`;
    expect(parsePlanFiles(md)).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts', 'lib/d.py']);
  });

  test('tables without a file column are ignored', () => {
    expect(parsePlanFiles('| Task | Owner |\n| --- | --- |\n| `a.py` | me |\n')).toEqual([]);
  });

  test('directories and globs in the plan cover files under them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-plan-'));
    try {
      mkdirSync(join(dir, 'todos', 's'), { recursive: true });
      writeFileSync(join(dir, 'todos', 's', 'implementation-plan.md'), '| File | Change |\n|---|---|\n| `src/engine/` | x |\n| `docs/**/*.md` | y |\n');
      const run = (p: string) => checkPlanDrift([p], { projectRoot: dir, workingSlug: 's' }, tc, {});
      expect(run('src/engine/a.ts')).toEqual([]);
      expect(run('docs/x/y.md')).toEqual([]);
      expect(run('lib/a.ts')).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('emphasis around a plan path is dropped, underscores inside are kept', () => {
  expect(parsePlanFiles('| File | Change |\n|---|---|\n| **src/a.py** | x |\n| teleclaude/__init__.py | y |\n')).toEqual(['src/a.py', 'teleclaude/__init__.py']);
});
