import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { materializeExample } from '../../../../fixtures/example/materialize-example.mjs';
import type { DoctorReport } from '@agent-checkpoint/setup-kit';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { HOOK_BUNDLE, runHookBundle } from '../test-support/run-hook-bundle.ts';

// `agent-checkpoint-hook doctor` through the real bundle, on temp HOMEs with stand-in agent CLIs.

let sandbox: HookSandbox;
let bin: string;
beforeEach(() => {
  sandbox = createHookSandbox('ac-doctor-');
  bin = join(sandbox.root, 'bin');
  mkdirSync(bin);
});
afterEach(() => sandbox.remove());

function script(name: string, body: string): void {
  const path = join(bin, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

function writeFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const env = (extra: Record<string, string> = {}) => ({ ...sandbox.env, PATH: `${bin}:/usr/bin:/bin`, NO_COLOR: '1', AGENT_CHECKPOINT_DOCTOR_TIMEOUT_MS: '1500', ...extra });
const doctor = async (cwd: string, extra: Record<string, string> = {}) => {
  const result = await runHookBundle({ args: ['doctor', '--cwd', cwd, '--json'], env: env(extra), cwd });
  return { ...result, report: JSON.parse(result.stdout) as DoctorReport };
};
const finding = (report: DoctorReport, id: string) => report.findings.find((f) => f.id === id);

const NODE = realpathSync(process.execPath);
const BUNDLE = realpathSync(HOOK_BUNDLE);

describe('doctor', () => {
  it('reports CLI versions, a missing CLI and a hanging one, and suggests installing where a CLI has no hook', async () => {
    script('claude', 'echo "2.1.330 (Claude Code)"');
    script('gemini', 'exec sleep 30');
    const { code, report } = await doctor(sandbox.root);
    expect(code).toBe(0);
    expect(finding(report, 'node')?.status).toBe('ok');
    expect(finding(report, 'claude.cli')).toMatchObject({ status: 'ok', title: 'Claude Code 2.1.330' });
    expect(finding(report, 'gemini.cli')).toMatchObject({ status: 'warn', detail: expect.stringContaining('no answer within 1500 ms') });
    expect(finding(report, 'codex.cli')).toMatchObject({ status: 'info' });
    expect(finding(report, 'claude.hook')).toMatchObject({ status: 'warn', fix: 'agent-checkpoint-hook install --agent claude' });
    expect(finding(report, 'codex.hook')?.status).toBe('info');
  });

  it('checks each registered entry: a missing node is a failure, a Gemini timeout in seconds a warning, exit 1', async () => {
    script('claude', 'echo 2.1.330');
    script('gemini', 'echo 0.61.0');
    writeFile(join(sandbox.home, '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: `/nonexistent/node ${BUNDLE} claude`, timeout: 30 }] }] } }));
    writeFile(
      join(sandbox.home, '.gemini', 'settings.json'),
      JSON.stringify({ hooks: { AfterAgent: [{ hooks: [{ name: 'agent-checkpoint', type: 'command', command: `${NODE} ${BUNDLE} gemini`, timeout: 30 }] }] } }),
    );
    const { code, report, stdout } = await doctor(sandbox.root);
    expect(code).toBe(1);
    expect(finding(report, 'claude.hook.user.Stop')).toMatchObject({ status: 'fail', fix: 'agent-checkpoint-hook install --agent claude' });
    expect(finding(report, 'claude.hook.user.Stop')?.detail).toContain('/nonexistent/node does not exist');
    expect(finding(report, 'gemini.hook.user.AfterAgent')).toMatchObject({ status: 'warn' });
    expect(finding(report, 'gemini.hook.user.AfterAgent')?.detail).toContain('counts it in milliseconds');
    expect(report.summary.fail).toBe(1);
    expect(stdout).not.toContain('\u001b[');
  });

  it('after install: hooks ok, Codex not yet trusted, then trusted once config.toml records the hash', async () => {
    script('codex', 'echo codex-cli 0.169.0');
    const codexHome = join(sandbox.root, 'codex-home');
    expect((await runHookBundle({ args: ['install', '--agent', 'codex'], env: env({ CODEX_HOME: codexHome }) })).code).toBe(0);
    const before = await doctor(sandbox.root, { CODEX_HOME: codexHome });
    expect(finding(before.report, 'codex.hook.user.Stop')?.status).toBe('ok');
    expect(finding(before.report, 'codex.trust.user')).toMatchObject({ status: 'warn', fix: expect.stringContaining('Hooks need review') });
    // What Codex's "Trust all and continue" writes (codex-cli.md §4).
    writeFile(join(codexHome, 'config.toml'), `[hooks.state."${join(codexHome, 'hooks.json')}:stop:0:0"]\ntrusted_hash = "sha256:abc"\n`);
    const after = await doctor(sandbox.root, { CODEX_HOME: codexHome });
    expect(finding(after.report, 'codex.trust.user')?.status).toBe('ok');
    writeFile(join(codexHome, 'config.toml'), `[features]\nhooks = false\n`);
    expect(finding((await doctor(sandbox.root, { CODEX_HOME: codexHome })).report, 'codex.features')?.status).toBe('fail');
  });

  it('reports an invalid project configuration with its diagnostics, and an unparseable settings file', async () => {
    const repo = join(sandbox.root, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    writeFile(join(repo, '.agent-checkpoint.json'), '{ "categories": [ { "id": "x", "include": "src/**" } ] }');
    writeFile(join(repo, '.claude', 'settings.json'), '{ "hooks": ');
    const { code, report } = await doctor(repo);
    expect(code).toBe(1);
    expect(finding(report, 'config')).toMatchObject({ status: 'fail' });
    expect(finding(report, 'config')?.detail).toContain('categories[0].include');
    expect(finding(report, 'claude.hook.project')).toMatchObject({ status: 'fail', title: expect.stringContaining('is not valid JSON') });
  });

  it('reads the newest session transcript of the directory (the bundled example)', async () => {
    script('claude', 'echo 2.1.330');
    const example = materializeExample(join(sandbox.root, 'example'));
    const { report } = await doctor(example.repo, { HOME: example.home });
    expect(finding(report, 'claude.transcript')).toMatchObject({ status: 'ok', title: expect.stringContaining('last turn: 6 tool calls') });
    expect(finding(report, 'claude.transcript')?.detail).toContain(example.transcript);
    expect(finding(report, 'config')?.title).toContain('project-file');
  });

  it('warns about off switches; human output has a fix line per problem; usage errors exit 2', async () => {
    await runHookBundle({ args: ['off', '--all'], env: env() });
    const { report } = await doctor(sandbox.root, { AGENT_CHECKPOINT_DISABLE: '1' });
    expect(finding(report, 'switch.all')).toMatchObject({ status: 'warn', fix: 'agent-checkpoint-hook on --all' });
    expect(finding(report, 'switch.env')?.status).toBe('warn');
    const human = await runHookBundle({ args: ['doctor', '--cwd', sandbox.root], env: env() });
    expect(human.stdout).toContain('! checkpoints are switched off for all sessions\n');
    expect(human.stdout).toContain('    fix: agent-checkpoint-hook on --all\n');
    expect((await runHookBundle({ args: ['doctor', '--bogus'], env: env() })).code).toBe(2);
    expect((await runHookBundle({ args: ['doctor', '--help'], env: env() })).code).toBe(0);
  });

  it('reports hook entries of earlier versions (the .mjs entry) as working but worth re-installing', async () => {
    const legacy = BUNDLE.replace(/\.cjs$/, '.mjs');
    writeFile(join(sandbox.home, '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: `${NODE} ${legacy} claude`, timeout: 30 }] }] } }));
    const { report } = await doctor(sandbox.root);
    expect(finding(report, 'claude.hook.user.Stop')).toMatchObject({ status: 'warn', fix: 'agent-checkpoint-hook install --agent claude' });
    expect(finding(report, 'claude.hook.user.Stop')?.detail).toContain('agent-checkpoint-hook.mjs, the entry of older versions');
  });

  it("reports a user's command that mentions the hook (npx, a wrapper) as theirs, not as a registered hook", async () => {
    script('claude', 'echo 2.1.330');
    writeFile(
      join(sandbox.home, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx agent-checkpoint-hook claude' }] }, { hooks: [{ type: 'command', command: `~/bin/wrap.sh ${NODE} ${BUNDLE} claude` }] }] } }),
    );
    const { report } = await doctor(sandbox.root);
    const others = report.findings.filter((f) => f.id === 'claude.hook.user.Stop.other');
    expect(others.map((f) => f.title)).toEqual(['Claude Code (user): Stop → npx agent-checkpoint-hook claude', `Claude Code (user): Stop → ~/bin/wrap.sh ${NODE} ${BUNDLE} claude`]);
    expect(others.every((f) => f.status === 'warn' && f.detail?.includes('not one install wrote'))).toBe(true);
    expect(finding(report, 'claude.hook')).toMatchObject({ status: 'warn', fix: 'agent-checkpoint-hook install --agent claude' });
  });

  it('reports the code cache: created by the first run, then in use; refused when others can write to it; off', async () => {
    const cacheDir = join(sandbox.root, 'code-cache');
    const first = await doctor(sandbox.root, { AGENT_CHECKPOINT_CACHE_DIR: cacheDir });
    expect(finding(first.report, 'code-cache')).toMatchObject({ status: 'ok', title: `code cache ${cacheDir} (created by the first hook run)` });
    // That doctor run went through the launcher, which wrote the cache as it exited.
    const second = await doctor(sandbox.root, { AGENT_CHECKPOINT_CACHE_DIR: cacheDir });
    expect(finding(second.report, 'code-cache')).toMatchObject({ status: 'ok', detail: '1 cache file(s)' });
    chmodSync(cacheDir, 0o777);
    expect(finding((await doctor(sandbox.root, { AGENT_CHECKPOINT_CACHE_DIR: cacheDir })).report, 'code-cache')).toMatchObject({ status: 'warn', fix: expect.stringContaining('chmod 700') });
    expect(finding((await doctor(sandbox.root, { AGENT_CHECKPOINT_CODE_CACHE: '0' })).report, 'code-cache')).toMatchObject({ status: 'info' });
  });

  it('human output escapes control characters of a directory name (no escape sequence reaches the terminal)', async () => {
    const repo = join(sandbox.root, 'repo\u001b[2J\u009b31m');
    mkdirSync(repo);
    writeFile(join(repo, '.agent-checkpoint.json'), '{}');
    const result = await runHookBundle({ args: ['doctor', '--cwd', repo], env: env(), cwd: sandbox.root });
    expect(result.stdout).toContain('repo\\x1b[2J\\x9b31m');
    expect(result.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('runs the independent checks in parallel: git does not wait for a slow agent --version', async () => {
    const log = join(sandbox.root, 'order.log');
    // gemini --version takes 3 s; git logs when it starts. Sequential checks would start git after it.
    script('gemini', `echo "gemini-start $(date +%s%N)" >> '${log}'; sleep 3; echo "gemini-end $(date +%s%N)" >> '${log}'; echo 0.61.0`);
    script('git', `echo "git-start $(date +%s%N)" >> '${log}'; exec /usr/bin/git "$@"`);
    const { report } = await doctor(sandbox.root, { AGENT_CHECKPOINT_DOCTOR_TIMEOUT_MS: '10000' });
    expect(finding(report, 'gemini.cli')).toMatchObject({ status: 'ok' });
    const events = new Map<string, string>();
    for (const [event, at] of readFileSync(log, 'utf8').trim().split('\n').map((line) => line.split(' ') as [string, string])) if (!events.has(event)) events.set(event, at);
    expect(BigInt(events.get('git-start')!)).toBeLessThan(BigInt(events.get('gemini-end')!));
  });

  it('reports a project switched off', async () => {
    const repo = join(sandbox.root, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    expect((await runHookBundle({ args: ['off', '--project', '--cwd', repo], env: env(), cwd: repo })).code).toBe(0);
    const { report } = await doctor(repo);
    expect(finding(report, 'switch.project')).toMatchObject({ status: 'warn', fix: expect.stringContaining('on --project') });
  });
});
