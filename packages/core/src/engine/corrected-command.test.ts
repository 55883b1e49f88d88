import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeTempDir } from '../git/temp-git-repo.ts';
import { parseShellCommand } from '../shell/parse-shell-command.ts';
import type { ShellToolCall, ToolCall } from '../timeline/tool-call.ts';
import { configWith, failed, shell } from './build-test-timeline.ts';
import { checkErrors, GENERIC_ERROR_OBSERVATION } from './check-errors.ts';
import { correctsCommand, isNotFoundFailure, similarWords } from './corrected-command.ts';
import { computeTimelineFacts } from './timeline-facts.ts';

/**
 * The failures here are real: each command runs in a real shell in a temp project (a Makefile with
 * `restart`, `build` and a failing `deploy` target), and the call carries its real exit status and
 * output, as a transcript records them.
 */
let project: ReturnType<typeof makeTempDir>;
beforeAll(() => {
  project = makeTempDir('ac-typo-');
  writeFileSync(join(project.dir, 'Makefile'), 'restart:\n\t@echo daemon restarted\nbuild:\n\t@echo built\ndeploy:\n\t@echo upload failed; exit 1\n');
});
afterAll(() => project.remove());

/** Run `command` with bash in the project; the call as the transcript records it. */
function ran(command: string): ShellToolCall {
  const r = spawnSync('bash', ['-c', command], { cwd: project.dir, env: { ...project.env, PATH: process.env['PATH'] }, encoding: 'utf8', timeout: 30_000 });
  const exitCode = r.status ?? 1;
  const output = `${r.stdout}${r.stderr}`;
  return exitCode === 0 ? shell(command, { exitCode, output }) : failed(command, output, { exitCode });
}

const config = configWith({});
const errors = (calls: readonly ToolCall[]) => checkErrors(computeTimelineFacts(calls, { root: project.dir, cwd: project.dir }), config);

describe('a command that did not exist, then its corrected form', () => {
  test('the real failures are recognised as "does not exist"', () => {
    const typo = ran('make restrat');
    expect(typo.outcome).toBe('error');
    expect(isNotFoundFailure(typo.exitCode, typo.output?.head ?? '')).toBe(true);
    const missing = ran('pytset -q');
    expect(missing.exitCode).toBe(127);
    expect(isNotFoundFailure(missing.exitCode, missing.output?.head ?? '')).toBe(true);
    // A target that exists and fails is a real failure.
    const deploy = ran('make deploy');
    expect(deploy.outcome).toBe('error');
    expect(isNotFoundFailure(deploy.exitCode, deploy.output?.head ?? '')).toBe(false);
  });

  test('`make restrat` (No rule to make target) then `make restart` succeeds: resolved', () => {
    const restart = ran('make restart');
    expect(restart.outcome).toBe('success');
    expect(errors([ran('make restrat'), restart])).toEqual([]);
    // Also with set-up and filters around either command.
    expect(errors([ran('cd . && make restrat 2>&1 | tail -3'), ran('make restart')])).toEqual([]);
  });

  test('`pytset` (exit 127, command not found) then `pytest`: resolved', () => {
    // pytest need not be installed here: the later call is the transcript's record of the corrected command.
    expect(errors([ran('pytset -q tests'), shell('.venv/bin/pytest -q tests', { exitCode: 0 })])).toEqual([]);
    expect(errors([ran('pytset -q tests'), shell('python -m pytest -q tests', { exitCode: 0 })])).toEqual([]);
  });

  test('a real unknown npm script and a git typo, then the corrected command', () => {
    writeFileSync(join(project.dir, 'package.json'), JSON.stringify({ name: 'typo', private: true, scripts: { test: 'echo ok' } }));
    const npm = ran('npm run tset');
    expect(npm.outcome).toBe('error');
    expect(errors([npm, ran('npm test')])).toEqual([]);
    const git = ran('git stauts');
    expect(git.outcome).toBe('error');
    expect(errors([git, shell('git status', { exitCode: 0 })])).toEqual([]);
  });

  test('an unrelated later success does not resolve the not-found failure', () => {
    const typo = ran('make restrat');
    const calls = [typo, ran('make build'), ran('ls'), ran('echo done')];
    const found = errors(calls);
    expect(found.map((o) => o.text)).toEqual([`${GENERIC_ERROR_OBSERVATION}: \`make restrat\` (call #1)`]);
    expect(found[0]!.callIds).toEqual([typo.id]);
  });

  test('a real failure is not resolved by a similar-looking command', () => {
    // `make deploy` ran and failed: `make deploys`/`make depoly` succeeding says nothing about it.
    const found = errors([ran('make deploy'), shell('make deploys', { exitCode: 0 }), shell('make depoly', { exitCode: 0 })]);
    expect(found.map((o) => o.text)).toEqual([`${GENERIC_ERROR_OBSERVATION}: \`make deploy\` (call #1)`]);
  });

  test('a correction that fails is judged on its own, and named', () => {
    const found = errors([ran('make depoly'), ran('make deploy')]);
    expect(found.map((o) => o.text)).toEqual([`${GENERIC_ERROR_OBSERVATION}: \`make deploy\` (call #2)`]);
  });

  test('in a command of several parts, the corrected word must be the one the output names', () => {
    const chained = ran('make build && make restrat');
    expect(chained.output?.head).toContain('restrat');
    expect(errors([chained, ran('make restart')])).toEqual([]);
    // `make biuld` is similar to `build`, but build ran fine: the failure was `restrat`.
    expect(errors([chained, shell('make biuld', { exitCode: 0 })])).toHaveLength(1);
  });

  test('the correction is looked for among the next 25 calls only (a long turn stays linear)', () => {
    const typo = ran('make restrat');
    const between = (n: number) => Array.from({ length: n }, (_, i) => shell(`echo ${i}`, { exitCode: 0 }));
    expect(errors([typo, ...between(24), shell('make restart', { exitCode: 0 })])).toEqual([]);
    expect(errors([typo, ...between(25), shell('make restart', { exitCode: 0 })])).toHaveLength(1);
    // 5,000 not-found failures and no correction: well within a hook's budget.
    const many = Array.from({ length: 5_000 }, (_, i) => failed(`tool${i} --run`, `bash: tool${i}: command not found`, { exitCode: 127 }));
    const started = performance.now();
    expect(errors(many)).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  test('a pending later command does not resolve it', () => {
    expect(errors([ran('make restrat'), shell('make restart', { outcome: 'pending' })])).toHaveLength(1);
  });
});

describe('error observations name the failing command and its call', () => {
  test('several failures with one message are listed in order, up to three', () => {
    const calls = [ran('make deploy'), ran('bash -c "exit 3"'), shell('ls'), ran('false'), ran('exit 4')];
    const [only] = errors(calls);
    expect(only?.text).toBe(`${GENERIC_ERROR_OBSERVATION}: \`make deploy\` (call #1), \`bash -c "exit 3"\` (call #2), \`false\` (call #4) and 1 more`);
    expect(only?.callIds).toEqual([calls[0]!.id, calls[1]!.id, calls[3]!.id, calls[4]!.id]);
  });

  test('the quoted command is one line, in a code span its backticks cannot close, and cut when long', () => {
    const command = `printf '%s' "\`id\`"\nmake deploy # ${'x'.repeat(200)}`;
    const [only] = errors([failed(command, 'boom')]);
    expect(only?.text).toBe(`${GENERIC_ERROR_OBSERVATION}: \`\`printf '%s' "\`id\`" make deploy # ${'x'.repeat(26)}…\`\` (call #1)`);
    expect(only?.text).not.toMatch(/\n/);
  });
});

describe('similarWords', () => {
  test.each([
    ['restrat', 'restart'],
    ['pytset', 'pytest'],
    ['stauts', 'status'],
    ['biuld', 'build'],
    ['tset', 'test'],
    ['mkae', 'make'],
    ['restart_daemon', 'restart-daemon'],
    ['Build', 'build'],
  ])('%s → %s is a correction', (a, b) => expect(similarWords(a, b)).toBe(true));

  test.each([
    ['build', 'deploy'],
    ['restart', 'status'],
    ['ls', 'rm'],
    ['test', 'test'],
    ['lint', 'list-all'],
  ])('%s → %s is not', (a, b) => expect(similarWords(a, b)).toBe(false));
});

describe('correctsCommand', () => {
  const seg = (c: string) => parseShellCommand(c);
  test('exactly one word differs, and similarly', () => {
    expect(correctsCommand(seg('make restrat'), '', seg('make restart'))).toBe(true);
    expect(correctsCommand(seg('make restrat'), '', seg('make restart && make status'))).toBe(true);
    expect(correctsCommand(seg('make restrat'), '', seg('make -C daemon restart'))).toBe(false);
    expect(correctsCommand(seg('cargo tset --all'), '', seg('cargo test --workspace'))).toBe(false);
  });
});
