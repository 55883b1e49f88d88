import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { materializeExample, type MaterializedExample } from '../../../../fixtures/example/materialize-example.mjs';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';

// Issue 12, class 3, terminal side: `explain` prints file names, commands and message texts from the
// working tree. None may send an escape sequence, a C1 control, BEL, CR or a bidi override to the
// person's terminal, or forge a line of the report with a line break. Through the real bundle.

/** C0 except LF, DEL, C1, bidi overrides and isolates. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let sandbox: HookSandbox;
let example: MaterializedExample;
beforeEach(() => {
  sandbox = createHookSandbox('ac-explain-tty-');
  const root = join(sandbox.root, 'example');
  mkdirSync(root);
  example = materializeExample(root);
});
afterEach(() => sandbox.remove());

it('hostile file names and a hostile configured message never reach the terminal raw (human and --json output)', async () => {
  const names = ['src/evil\u001b]0;pwned\u0007.js', 'src/forged\n   ✓ Everything was verified.js', 'src/csi\u009b2J\r.js', 'src/\u202esj.exe'];
  for (const name of names) writeFileSync(join(example.repo, name), 'x\n');
  writeFileSync(join(example.repo, '.agent-checkpoint.json'), JSON.stringify({ messages: { prefix: '\u001b[2J\u0007[cp] ' } }));
  // No transcript for codex in this HOME: every uncommitted file counts.
  const env = { ...sandbox.env, HOME: example.home, NO_COLOR: '1' };
  const human = await runHookBundle({ args: ['explain', '--agent', 'codex', '--cwd', example.repo], env, cwd: example.repo });
  expect(human.code, human.stderr).toBe(0);
  expect(human.stdout).not.toMatch(RAW_CONTROL);
  expect(human.stdout.split('\n').filter((l) => /^\s*✓ Everything was verified/.test(l))).toEqual([]);
  expect(human.stdout).toContain('src/evil\\x1b]0;pwned\\x07.js');
  expect(human.stdout).toContain('src/forged\\n   ✓ Everything was verified.js');
  const json = await runHookBundle({ args: ['explain', '--agent', 'codex', '--cwd', example.repo, '--json'], env, cwd: example.repo });
  expect(json.code, json.stderr).toBe(0);
  expect(json.stdout).not.toMatch(RAW_CONTROL);
  const report = JSON.parse(json.stdout) as { files: { path: string }[] };
  expect(report.files.map((f) => f.path)).toEqual(expect.arrayContaining(names));
});
