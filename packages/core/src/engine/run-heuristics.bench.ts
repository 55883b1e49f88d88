import { bench, describe } from 'vitest';
import { resolveConfig } from '../config/resolve-config.ts';
import { parseShellCommand } from '../shell/parse-shell-command.ts';
import type { ToolCall } from '../timeline/tool-call.ts';
import { attributeFiles } from './attribute-files.ts';
import { abs, changed, context, edit, failed, patch, read, shell, timeline, write } from './build-test-timeline.ts';
import { categorizeFiles } from './categorize-files.ts';
import { composeMessage } from './compose-message.ts';
import { runHeuristics } from './run-heuristics.ts';

// A long, busy turn: 2,000 calls over 300 files, with heredocs, wrapped commands, failures and
// re-runs — far beyond a typical turn (tens of calls), to show the engine stays well under the hook budget.
const N_FILES = 300;
const paths = Array.from({ length: N_FILES }, (_, i) => `teleclaude/mod${i % 12}/file${i}.py`);
const bigPatch = `*** Begin Patch\n${paths.slice(0, 50).map((p) => `*** Update File: ${p}\n@@\n-old line\n+new line\n`).join('')}*** End Patch`;
const calls: ToolCall[] = [];
for (let i = 0; calls.length < 2000; i++) {
  const p = paths[i % N_FILES]!;
  calls.push(read(abs(p)));
  calls.push(i % 3 === 0 ? edit(abs(p)) : i % 3 === 1 ? write(abs(p)) : shell(`cd teleclaude && sed -i 's/a/b/' ${p.slice('teleclaude/'.length)}`));
  if (i % 10 === 0) calls.push(failed(`timeout 60 .venv/bin/python -m pytest tests/test_${i}.py -x 2>&1 | tail -40`, `${'.'.repeat(3000)}\nFAILED tests/test_${i}.py::test_x\n1 failed`));
  if (i % 15 === 0) calls.push(shell(`bash -lc "cd /repo && make restart && make status"`));
  if (i % 40 === 0) calls.push(shell(`git commit -m "$(cat <<'EOF'\nWork in progress on ${p}: it's fine\nEOF\n)"`));
  if (i % 50 === 0) calls.push(patch(paths.slice(0, 50), bigPatch));
}
const turn = timeline(calls, { startedAt: new Date(0).toISOString() });
const snapshot = { kind: 'repo' as const, root: '/repo', files: paths.map((p) => changed(p, { mtimeMs: 0 })) };
const configs = {
  teleclaude: resolveConfig([{ config: { extends: 'teleclaude' }, source: { kind: 'project-file', name: 'bench' } }]),
  'node-pnpm + python-uv + docker-compose': resolveConfig([{ config: { extends: ['node-pnpm', 'python-uv', 'docker-compose'] }, source: { kind: 'project-file', name: 'bench' } }]),
};
const ctx = context({ elapsedSeconds: 900 });

describe(`engine on a ${calls.length}-call, ${N_FILES}-file turn`, () => {
  // A fresh calls array each time: timeline facts are memoized per array (attribution and the
  // heuristics share one computation in getCheckpoint), and each checkpoint reads a new timeline.
  for (const [name, config] of Object.entries(configs)) {
    bench(`attributeFiles + runHeuristics + composeMessage (${name})`, () => {
      const fresh = { ...turn, calls: [...turn.calls] };
      const attributed = attributeFiles({ snapshot, timeline: fresh, context: ctx });
      // As getCheckpoint does it: the files are categorized once for the heuristics and the message.
      const categorization = categorizeFiles(attributed.map((f) => f.file.path), config);
      const result = runHeuristics(attributed, fresh, ctx, config, categorization);
      composeMessage(result, attributed, config, { sessionId: 'bench', categorization });
    });
  }
});

// The other extreme: a short turn in a repository with 5,000 changed files (a codemod, a vendored
// directory, a generated client), every one attributed by its mtime. The per-file work dominates.
const BIG = 5000;
const bigPaths = Array.from({ length: BIG }, (_, i) => (i % 2 === 0 ? `src/module-${String(i % 50).padStart(2, '0')}/file-${i}.ts` : `generated/new-${i}.ts`));
const bigSnapshot = { kind: 'repo' as const, root: '/repo', files: bigPaths.map((p) => changed(p, { mtimeMs: Date.now() })) };
const shortTurn = timeline([read(abs('calc.mjs')), edit(abs('calc.mjs')), shell('node calc.test.mjs')], { startedAt: new Date(0).toISOString() });
const nodeConfig = resolveConfig([{ config: { extends: 'node-pnpm' }, source: { kind: 'project-file', name: 'bench' } }]);

describe(`engine on a 3-call turn with ${BIG} changed files`, () => {
  bench('attributeFiles + categorizeFiles + runHeuristics + composeMessage (node-pnpm)', () => {
    const fresh = { ...shortTurn, calls: [...shortTurn.calls] };
    const attributed = attributeFiles({ snapshot: bigSnapshot, timeline: fresh, context: ctx, turnStartMs: 0 });
    const categorization = categorizeFiles(attributed.map((f) => f.file.path), nodeConfig);
    const result = runHeuristics(attributed, fresh, ctx, nodeConfig, categorization);
    composeMessage(result, attributed, nodeConfig, { sessionId: 'bench', categorization });
  });
});

describe('shell parsing', () => {
  const heredoc = `apply_patch <<'PATCH'\n${bigPatch.repeat(20)}\nPATCH`;
  bench(`parseShellCommand: ${Math.round(heredoc.length / 1024)} KiB apply_patch heredoc`, () => {
    parseShellCommand(heredoc);
  });
  bench('parseShellCommand: typical wrapped command', () => {
    parseShellCommand('cd /repo && FOO=1 timeout 60 uv run pytest tests/unit -x -q 2>&1 | tail -n 40');
  });
});
