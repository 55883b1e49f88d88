import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { AgentId } from '@agent-checkpoint/core';
import { createDeliveryWorld, type DeliveryFixture, type DeliveryScenario, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { CODEX_FIXTURE, DELIVERY_FIXTURES, GEMINI_FIXTURE } from '../../src/test-support/delivery-fixtures.ts';
import { HOOK_BUNDLE, runHookBundle, type HookProcessResult } from '../../src/test-support/run-hook-bundle.ts';
import { expectAgentContract, payloadFor, runScenario, walkModes } from './support.ts';

// Security properties of the hook route (docs/reliability.md):
// - nothing from a transcript, a file name, a payload field or the environment is ever run by a
//   shell: commands that would create a marker file are planted everywhere, and the marker never
//   appears;
// - no path traversal through session ids, turn ids, plan slugs or switch names: every file the hook
//   creates lies inside the state directory (or the config cache);
// - state files and directories are user-only (0600 / 0700), even under `umask 000`.

let world: DeliveryWorld | undefined;
afterEach(() => {
  world?.remove();
  world = undefined;
});

function open(fixture: DeliveryFixture): DeliveryWorld {
  world = createDeliveryWorld(fixture);
  return world;
}

/**
 * Commands that would create `${HOME}.pwned-<where>-<random>` if any shell ever ran them. `${HOME}`
 * is expanded only by a shell, so the strings hold no slash and can also be file names.
 */
function hostile(where: string, tag: string): { readonly payloads: readonly string[]; marker(home: string): string } {
  const name = `.pwned-${where}-${tag}`;
  const touch = `touch \${HOME}${name}`;
  return {
    payloads: [`$(${touch})`, `\`${touch}\``, `; ${touch};`, `&& ${touch} #`, `| ${touch}`, `\n${touch}\n`, `'; ${touch}; '`, `"; ${touch}; "`, `bash -c '${touch}'`],
    marker: (home) => `${home}${name}`,
  };
}

/**
 * Append a hostile payload to every string of a transcript line that reads like text (commands, tool
 * outputs, messages, prompts: strings with a space), recursing into strings that hold JSON (Codex
 * `arguments`), so ids, types and timestamps keep their meaning.
 */
function poisonJsonLine(line: string, payload: string): string {
  if (line.trim() === '') return line;
  try {
    return JSON.stringify(poison(JSON.parse(line) as unknown, payload));
  } catch {
    return line;
  }
}

function poison(value: unknown, payload: string): unknown {
  if (typeof value === 'string') {
    if (/^[[{]/.test(value)) {
      try {
        return JSON.stringify(poison(JSON.parse(value) as unknown, payload));
      } catch {
        // Not JSON after all.
      }
    }
    return value.includes(' ') ? `${value} ${payload}` : value;
  }
  if (Array.isArray(value)) return value.map((v) => poison(v, payload));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poison(v, payload)]));
  }
  return value;
}

describe('nothing planted in a transcript, a file name, a payload or the environment is executed', () => {
  it('the planted payloads are live: a shell that runs or interpolates any of them (bare or quoted) creates the marker', () => {
    const dir = open(GEMINI_FIXTURE).root;
    const place = hostile('self-test', randomBytes(5).toString('hex'));
    for (const payload of place.payloads) {
      const live = [payload, `echo x ${payload} x`, `echo 'x${payload}x'`, `echo "x${payload}x"`].some((script) => {
        rmSync(place.marker(dir), { force: true });
        // In the world's root: `echo x | touch <marker> x` also touches `x` in the shell's cwd.
        spawnSync('/bin/sh', ['-c', script], { cwd: dir, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir }, stdio: 'ignore' });
        return existsSync(place.marker(dir));
      });
      expect(live, payload).toBe(true);
    }
    // That stray `x` landed in the temp dir (removed with the world), not in the package directory.
    expect(existsSync(join(dir, 'x'))).toBe(true);
    rmSync(place.marker(dir), { force: true });
  });

  it.each(DELIVERY_FIXTURES.map((f) => [f.agent, f] as const))('%s', { timeout: 90_000 }, async (agent, fixture) => {
    const w = open(fixture);
    const tag = randomBytes(5).toString('hex');
    const base = w.scenario('actionable');
    const home = base.env['HOME']!;
    const places = {
      transcript: hostile('transcript', tag),
      filename: hostile('filename', tag),
      payload: hostile('payload', tag),
      env: hostile('env', tag),
      config: hostile('config', tag),
    };

    // Transcript: commands, tool outputs, messages and prompts all carry the payloads.
    const lines = readFileSync(base.transcriptPath, 'utf8').split('\n');
    const poisoned = join(w.root, 'poisoned.jsonl');
    writeFileSync(poisoned, lines.map((line, i) => poisonJsonLine(line, places.transcript.payloads[i % places.transcript.payloads.length]!)).join('\n'));

    // Git: changed files and a directory named like commands.
    for (const payload of places.filename.payloads) writeFileSync(join(w.repo, `f ${payload.replace(/\//g, '∕')}.txt`), 'x\n');
    mkdirSync(join(w.repo, `dir ${places.filename.payloads[0]}`));
    writeFileSync(join(w.repo, `dir ${places.filename.payloads[0]}`, `${places.filename.payloads[1]}.ts`), 'x\n');

    // Configuration text the user owns (action and header texts are only ever printed).
    w.writeConfig({
      ...w.actionableConfig,
      messages: { header: `Checkpoint ${places.config.payloads[0]}` },
      categories: [{ ...w.actionableConfig.categories![0]!, action: `Run ${places.config.payloads[2]}` }],
    });

    // Payload fields, and a cwd reached through a symlink named like a command.
    const cwdLink = join(w.root, `cwd ${places.payload.payloads[0]}`);
    symlinkSync(w.repo, cwdLink);
    const p = places.payload.payloads;
    const scenario: DeliveryScenario = {
      ...base,
      cwd: cwdLink,
      transcriptPath: poisoned,
      sessionId: `sess ${p[0]}`,
      hint: { turnId: `turn ${p[1]}`, prompt: `prompt ${p[2]}`, lastAssistantMessage: `done ${p[3]}` },
      env: { ...base.env, AGENT_CHECKPOINT_SLUG: places.env.payloads[0]!, AGENT_CHECKPOINT_DEBUG: '1' },
    };
    const result = await runScenario(scenario, { overrides: { model: p[4], permission_mode: p[5] }, killAfterMs: 60_000 });
    const delivered = expectAgentContract(agent, result);
    // The poisoned inputs reached the pipeline: the configured texts are in the message, and
    // getCheckpoint saw the hostile file names.
    expect(delivered).toContain(places.config.payloads[0]);
    const reference = await w.expected(scenario);
    expect(reference.git?.kind === 'repo' && reference.git.files.some((f) => f.path.includes('touch ${HOME}.pwned-filename'))).toBe(true);
    expect(delivered).toBe(reference.message);

    // Management commands with hostile arguments.
    for (const args of [['off', '--session', p[6]!], ['status', '--session', p[7]!, '--json'], ['on', '--session', p[8]!]]) {
      const managed = await runHookBundle({ args, env: scenario.env, cwd: w.repo });
      expect(managed.code, managed.stderr).toBe(0);
    }

    for (const [where, place] of Object.entries(places)) {
      expect(existsSync(place.marker(home)), `a command planted in the ${where} was executed`).toBe(false);
    }
  });
});

describe('no path traversal', () => {
  it.each(DELIVERY_FIXTURES.map((f) => [f.agent, f] as const))(
    '%s: hostile session and turn ids, and switch names, create files only inside the state directory',
    { timeout: 60_000 },
    async (agent, fixture) => {
      const w = open(fixture);
      const before = new Set(listTree(w.root));
      const all = ['../../../escaped', '/etc/escaped-abs', '..', 'a/../../b', '..\\..\\win', `${'../'.repeat(40)}tmp/escaped-deep`];
      // Each agent takes its share of the ids (the sanitizing code is shared; the file names are not).
      const traversal = all.filter((_, i) => i % DELIVERY_FIXTURES.length === DELIVERY_FIXTURES.indexOf(fixture));
      for (const [i, id] of traversal.entries()) {
        const scenario = { ...w.scenario('actionable', { AGENT_CHECKPOINT_DEBUG: '1' }), sessionId: id, hint: { ...fixture.hint, turnId: all[(i + 3) % all.length]! } };
        expectAgentContract(agent, await runScenario(scenario, { killAfterMs: 30_000 }));
        await runHookBundle({ args: ['off', '--session', id], env: scenario.env, cwd: w.repo });
      }
      const allowed = [w.stateDir, join(w.scenario('actionable').env['HOME']!, '.cache', 'agent-checkpoint')];
      const created = listTree(w.root).filter((path) => !before.has(path));
      expect(created.length).toBeGreaterThan(0);
      // Inside an allowed directory, or one of the directories leading to it.
      const inside = (path: string): boolean => allowed.some((dir) => path === dir || path.startsWith(`${dir}/`) || dir.startsWith(`${path}/`));
      for (const path of created) expect(inside(path), `created outside the state dir: ${path}`).toBe(true);
      for (const outside of ['/etc/escaped-abs', '/tmp/escaped-deep', join(w.root, '..', 'escaped')]) expect(existsSync(outside), outside).toBe(false);
    },
  );

  it('AGENT_CHECKPOINT_SLUG=../../outside never reads a plan outside the repository; a plain slug does', { timeout: 60_000 }, async () => {
    const w = open(CODEX_FIXTURE);
    // The same plan, once outside the repository (reachable only by traversal) and once inside.
    const plan = '# Plan\n\n## Files to Change\n\n- `somewhere/else.py` — the planned change\n';
    mkdirSync(join(w.root, 'outside'), { recursive: true });
    writeFileSync(join(w.root, 'outside', 'plan.md'), plan);
    mkdirSync(join(w.repo, 'plans', 'inside'), { recursive: true });
    writeFileSync(join(w.repo, 'plans', 'inside', 'plan.md'), plan);
    w.writeConfig({ ...w.actionableConfig, planDrift: { path: 'plans/{slug}/plan.md' } });
    const deliver = async (slug: string | undefined): Promise<string | null> => {
      const scenario = { ...w.scenario('actionable', slug === undefined ? {} : { AGENT_CHECKPOINT_SLUG: slug }), sessionId: `slug-${slug ?? 'none'}`.replace(/[^\w-]/g, '_') };
      return expectAgentContract('codex', await runScenario(scenario, { killAfterMs: 30_000 }));
    };
    const drift = /expects changes in different files/;
    expect(await deliver('inside')).toMatch(drift);
    for (const slug of ['../../outside', '../outside', '/abs/outside', 'inside/../../../outside']) {
      const delivered = await deliver(slug);
      expect(delivered, slug).not.toBeNull();
      expect(delivered, slug).not.toMatch(drift);
    }
  });
});

describe('state files are user-only', () => {
  it.each(DELIVERY_FIXTURES.map((f) => [f.agent, f] as const))('%s: 0600 files and 0700 directories, even under umask 000', { timeout: 60_000 }, async (agent, fixture) => {
    const w = open(fixture);
    const scenario = w.scenario('actionable', { AGENT_CHECKPOINT_DEBUG: '1' });
    expect(expectAgentContract(agent, await runWithUmask(agent, [], payloadFor(scenario), scenario))).not.toBeNull();
    for (const args of [['off', '--session', 'other-session'], ['off', '--all'], ['on', '--all']]) {
      expect((await runWithUmask(agent, args, '', scenario)).code).toBe(0);
    }
    const entries = walkModes(w.stateDir);
    expect(entries.some((e) => e.path.endsWith('.json'))).toBe(true);
    expect(entries.some((e) => e.path.endsWith('debug.log'))).toBe(true);
    for (const entry of entries) {
      expect(entry.mode, `${relative(w.stateDir, entry.path) || '.'} is ${entry.mode.toString(8)}`).toBe(entry.kind === 'dir' ? 0o700 : 0o600);
    }
    // The validated-config cache holds the user's configuration: private too.
    for (const entry of walkModes(join(scenario.env['HOME']!, '.cache', 'agent-checkpoint'))) {
      expect(entry.mode, entry.path).toBe(entry.kind === 'dir' ? 0o700 : 0o600);
    }
  });
});

/** Run the bundle (hook or management command) through `sh -c 'umask 000; exec …'`. */
function runWithUmask(agent: AgentId, managementArgs: readonly string[], stdin: string, scenario: DeliveryScenario): Promise<HookProcessResult> {
  const args = managementArgs.length > 0 ? managementArgs : [agent];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', 'umask 000; exec "$@"', 'sh', process.execPath, HOOK_BUNDLE, ...args], {
      cwd: scenario.cwd,
      env: scenario.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdin.on('error', () => undefined);
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', (error) => {
      clearTimeout(killer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout: managementArgs.length > 0 ? '' : stdout, stderr, ms: Date.now() - started });
    });
    child.stdin.end(stdin);
  });
}

/** Every path under `dir` (symlinks listed, not followed), skipping git's internals. */
function listTree(dir: string): string[] {
  const out: string[] = [];
  const visit = (path: string): void => {
    out.push(path);
    if (lstatSync(path).isDirectory() && !path.endsWith('/.git')) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return out;
}
