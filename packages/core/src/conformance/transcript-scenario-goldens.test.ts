import { describe, expect, it } from 'vitest';
import { makeOutputExcerpt } from '../timeline/make-output-excerpt.ts';
import type { ToolCall, ToolOutcome } from '../timeline/tool-call.ts';
import { neutralCalls } from './transcript-neutral-calls.ts';
import { forbiddenReads, matchSteps, SCENARIO_GOLDENS } from './transcript-scenario-goldens.ts';

// Synthetic calls in each agent's style, to show the goldens accept every spelling of the same turn
// and reject what would make a heuristic wrong.
const CWD = '/WORK/repo';
let counter = 0;
const id = (): string => `call-${(counter += 1)}`;

const run = (command: string, outcome: ToolOutcome, exitCode: number | undefined, output: string): ToolCall => ({
  kind: 'shell',
  id: id(),
  rawName: 'Bash',
  input: { command },
  paths: [],
  outcome,
  command,
  ...(exitCode === undefined ? {} : { exitCode }),
  output: makeOutputExcerpt(output),
});
const read = (path: string, output: string, rawName = 'Read'): ToolCall => ({
  kind: 'read',
  id: id(),
  rawName,
  input: { file_path: path },
  paths: [path],
  outcome: 'success',
  output: makeOutputExcerpt(output),
});
const edit = (path: string, kind: 'edit' | 'write' = 'edit'): ToolCall => ({
  kind,
  id: id(),
  rawName: kind === 'edit' ? 'Edit' : 'Write',
  input: { file_path: path },
  paths: [path],
  outcome: 'success',
});
const patch = (text: string, paths: string[]): ToolCall => ({
  kind: 'patch',
  id: id(),
  rawName: 'apply_patch',
  input: { input: text },
  paths,
  outcome: 'success',
});

const steps = (name: keyof typeof SCENARIO_GOLDENS, turn = 0) => SCENARIO_GOLDENS[name].turns[turn]!.steps;
const match = (name: keyof typeof SCENARIO_GOLDENS, calls: ToolCall[], turn = 0) => matchSteps(neutralCalls(calls, CWD), steps(name, turn));

const TEST = 'node calc.test.mjs';
const CALC = 'export function add(a, b) {\n  return a - b;\n}\n';

describe('scenario goldens', () => {
  it('fail-fix-pass: Claude-style and Codex-style turns both match', () => {
    const claude = [
      run(TEST, 'error', 1, 'Exit code 1\nFAIL: add(2, 2) returned 0'),
      read('/WORK/repo/calc.mjs', CALC),
      edit('/WORK/repo/calc.mjs'),
      run(TEST, 'success', 0, 'PASS: add'),
    ];
    expect(match('fail-fix-pass', claude)).toEqual([]);
    const codex = [
      run(TEST, 'error', 1, 'FAIL: add'),
      run('cat calc.mjs', 'success', 0, CALC),
      patch('*** Begin Patch\n*** Update File: calc.mjs\n@@\n-  return a - b;\n+  return a + b;\n*** End Patch', ['calc.mjs', '/WORK/repo/calc.mjs']),
      run(`  node   calc.test.mjs\n`, 'success', 0, 'PASS: add\n'),
    ];
    expect(match('fail-fix-pass', codex)).toEqual([]);
  });

  it('fail-fix-pass: rejects a missing exit code, a wrong order and an extra call', () => {
    const noExit = [run(TEST, 'error', undefined, 'FAIL: add'), read('calc.mjs', CALC), edit('calc.mjs'), run(TEST, 'success', 0, 'PASS: add')];
    expect(match('fail-fix-pass', noExit).join('\n')).toMatch(/exit code should be 1/);
    expect(matchSteps(neutralCalls(noExit, CWD), steps('fail-fix-pass'), { deviations: { exitCodesNotRecorded: 'test' } })).toEqual([]);

    const swapped = [run(TEST, 'success', 0, 'PASS: add'), read('calc.mjs', CALC), edit('calc.mjs'), run(TEST, 'error', 1, 'FAIL: add')];
    expect(match('fail-fix-pass', swapped).join('\n')).toMatch(/outcome should be error/);

    const extra = [run(TEST, 'error', 1, 'FAIL: add'), read('calc.mjs', CALC), edit('calc.mjs'), run(TEST, 'success', 0, 'PASS: add'), run('ls', 'success', 0, '')];
    expect(match('fail-fix-pass', extra).join('\n')).toMatch(/unexpected call\(s\) after the last step: #4 shell\/Bash "ls"/);

    const short = [run(TEST, 'error', 1, 'FAIL: add')];
    expect(match('fail-fix-pass', short).join('\n')).toMatch(/no call left/);
  });

  it('parallel-calls: each call must carry its own result', () => {
    const slow = `node -e "setTimeout(() => console.log('slow-check-done'), 1000)"`;
    const good = [run(slow, 'success', 0, 'slow-check-done'), run('echo fast-check-done', 'success', 0, 'fast-check-done'), read('README.md', 'A tiny calculator')];
    expect(match('parallel-calls', good)).toEqual([]);
    // Results paired by position after they came back out of order.
    const crossed = [run(slow, 'success', 0, 'fast-check-done'), run('echo fast-check-done', 'success', 0, 'slow-check-done'), read('README.md', 'A tiny calculator')];
    const problems = match('parallel-calls', crossed).join('\n');
    expect(problems).toMatch(/output should contain "slow-check-done"/);
    expect(problems).toMatch(/another call's result/);
  });

  it('multi-file-patch: three calls or one patch cover the three files; a missing file is reported', () => {
    const reads = [read('src/format.mjs', 'formatTotal'), read('src/report.mjs', 'formatTotal')];
    const check = run(`node --input-type=module -e "import { report } from './src/index.mjs'; console.log(report(3));"`, 'success', 0, 'Total: 3');
    const threeCalls = [...reads, edit('src/format.mjs'), edit('src/report.mjs'), edit('src/index.mjs', 'write'), check];
    expect(match('multi-file-patch', threeCalls)).toEqual([]);
    const text = [
      '*** Begin Patch',
      '*** Update File: src/format.mjs',
      '@@',
      '-a',
      '+b',
      '*** Update File: src/report.mjs',
      '@@',
      '-a',
      '+b',
      '*** Add File: src/index.mjs',
      '+export {};',
      '*** End Patch',
    ].join('\n');
    const onePatch = [...reads, patch(text, ['src/format.mjs', 'src/report.mjs', 'src/index.mjs', '/WORK/repo/src/index.mjs']), check];
    expect(match('multi-file-patch', onePatch)).toEqual([]);
    const missing = [...reads, edit('src/format.mjs'), edit('src/report.mjs'), check];
    expect(match('multi-file-patch', missing).join('\n')).toMatch(/src\/index\.mjs is not changed/);
  });

  it('edit-without-read: a read of the edited file is reported, whichever way it was read', () => {
    const turn = SCENARIO_GOLDENS['edit-without-read'].turns[0]!;
    const clean = [edit('greeting.txt'), edit('CHANGELOG.md', 'write')];
    expect(match('edit-without-read', clean)).toEqual([]);
    expect(forbiddenReads(neutralCalls(clean, CWD), turn.neverReads)).toEqual([]);
    expect(forbiddenReads(neutralCalls([run('cat greeting.txt', 'success', 0, 'Hello'), ...clean], CWD), turn.neverReads)).toHaveLength(1);
    expect(forbiddenReads(neutralCalls([read('/WORK/repo/greeting.txt', 'Hello'), ...clean], CWD), turn.neverReads)).toHaveLength(1);
  });

  it('interrupted-turn: an interrupted command may be error or pending, never a success; a CLI may drop it', () => {
    expect(match('interrupted-turn', [run('node slow-job.mjs', 'error', undefined, 'The user doesn\'t want to proceed')])).toEqual([]);
    expect(match('interrupted-turn', [run('node slow-job.mjs', 'pending', undefined, 'aborted by user')])).toEqual([]);
    expect(match('interrupted-turn', [run('node slow-job.mjs', 'success', 0, '')]).join('\n')).toMatch(/must not be a success/);
    const pending = neutralCalls([run('node slow-job.mjs', 'pending', undefined, 'aborted by user')], CWD);
    expect(matchSteps(pending, steps('interrupted-turn'), { interruptedOutcome: 'pending' })).toEqual([]);
    expect(matchSteps(pending, steps('interrupted-turn'), { interruptedOutcome: 'error' }).join('\n')).toMatch(/records an interrupted command as error/);
    expect(match('interrupted-turn', []).join('\n')).toMatch(/no call left/);
    const dropped = { deviations: { interruptedCallNotRecorded: 'the CLI drops it' } };
    expect(matchSteps([], steps('interrupted-turn'), dropped)).toEqual([]);
    // The deviation does not excuse a call that is there after all.
    expect(matchSteps(neutralCalls([run('node slow-job.mjs', 'error', undefined, '')], CWD), steps('interrupted-turn'), dropped).join('\n')).toMatch(/unexpected call/);
  });

  it('a read step refuses a call that changes the file', () => {
    expect(match('second-turn', [edit('greeting.txt')]).join('\n')).toMatch(/does not read greeting\.txt/);
    expect(match('second-turn', [edit('greeting.txt')], 1)).toEqual([]);
  });

  it('every golden turn starts from a prompt and lists a stop for each completed turn', () => {
    for (const golden of Object.values(SCENARIO_GOLDENS)) {
      for (const turn of golden.turns) {
        expect(turn.prompt.length, golden.name).toBeGreaterThan(0);
        if (turn.completes) expect(turn.stops, golden.name).toBeGreaterThan(0);
        if (turn.blockedAfterStep !== undefined) expect(turn.stops, golden.name).toBe(turn.checkpointsDelivered + 1);
      }
    }
  });
});
