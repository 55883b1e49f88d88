import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSessionState } from '@agent-checkpoint/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizeTypedText } from '../../src/sanitize-typed-text.ts';
import { buildBundle, createCodexWorld, RECORDED, type CodexWorld } from '../../src/__fixtures__/codex-world.ts';
import { startFakeCodex, startTestTmux, type FakeCodexPane } from '../../src/__fixtures__/tmux-test-server.ts';
import { expectedForTurn1, expectNotifyContract, runNotifyBounded } from './support.ts';

// Security of the tmux route (docs/reliability.md). Unit tests of the sanitizer
// (src/sanitize-typed-text.test.ts) and of hostile text typed into a pane (src/deliver-to-pane.test.ts)
// exist; these tests follow untrusted data end to end — from a rollout, from file names in git and
// from the notify payload — through getCheckpoint into the Codex pane:
// - nothing planted there is ever run by a shell;
// - control sequences in them reach the pane inert (no key, no escape, no early paste end);
// - no id creates a file outside the state directory.

let work: string;
let bundle: string;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ac-tmux-rel-security-'));
  bundle = await buildBundle(work);
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function withPane(test: (ctx: { world: CodexWorld; fake: FakeCodexPane }) => Promise<void>): Promise<void> {
  const world = createCodexWorld();
  const server = await startTestTmux();
  try {
    await test({ world, fake: await startFakeCodex(server, ['--busy-ms', '100', '--hold-open', world.rolloutPath]) });
  } finally {
    await server.dispose();
    world.remove();
  }
}

/** Shell payloads that would create `${HOME}.pwned-<where>-<tag>`; no slash, so usable in file names. */
function hostile(where: string, tag: string): { payloads: string[]; marker(home: string): string } {
  const name = `.pwned-${where}-${tag}`;
  const touch = `touch \${HOME}${name}`;
  return { payloads: [`$(${touch})`, `\`${touch}\``, `; ${touch};`, `&& ${touch} #`, `| ${touch}`, `\n${touch}\n`, `'; ${touch}; '`], marker: (home) => `${home}${name}` };
}

/** Append `payload` to every text-like string (has a space) of a JSON line, recursing into JSON strings. */
function poison(value: unknown, payload: string): unknown {
  if (typeof value === 'string') {
    if (/^[[{]/.test(value)) {
      try {
        return JSON.stringify(poison(JSON.parse(value) as unknown, payload));
      } catch {
        // Not JSON.
      }
    }
    return value.includes(' ') ? `${value} ${payload}` : value;
  }
  if (Array.isArray(value)) return value.map((v) => poison(v, payload));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poison(v, payload)]));
  return value;
}

function poisonRollout(world: CodexWorld, payloads: readonly string[]): string {
  const path = world.writeRollout(RECORDED.turn1End, '[agent-checkpoint] ');
  const lines = readFileSync(path, 'utf8').split('\n');
  writeFileSync(path, lines.map((line, i) => (line.trim() === '' ? line : JSON.stringify(poison(JSON.parse(line), payloads[i % payloads.length]!)))).join('\n'));
  return path;
}

/** Control sequences a terminal would act on, as they could appear in file names or tool output. */
const CONTROL_SEQUENCES = [
  '\u001b]52;c;ZXZpbA==\u0007', // OSC 52: write the clipboard
  '\u001b[201~\r', // end the bracketed paste early, then Enter
  '\u0003', // C-c
  '\u001b[2J\u001b[H', // clear the screen
  '\u009b6n', // 8-bit CSI: report the cursor position
  '\u001bP+q544e\u001b\\', // DCS request
];

describe('untrusted data from the rollout, file names and the payload, end to end into the pane', () => {
  it('no planted command runs; the typed text is exactly getCheckpoint’s, made inert', { timeout: 90_000 }, () =>
    withPane(async ({ world, fake }) => {
      const tag = randomBytes(5).toString('hex');
      const home = world.env['HOME']!;
      const places = { rollout: hostile('rollout', tag), filename: hostile('filename', tag), payload: hostile('payload', tag), env: hostile('env', tag) };
      const rollout = poisonRollout(world, [...places.rollout.payloads, ...CONTROL_SEQUENCES.map((c) => `tail ${c} end`)]);
      // File names sort before the recorded ones ('!'), so the "Changed:" line lists them.
      for (const [i, payload] of places.filename.payloads.slice(0, 3).entries()) writeFileSync(join(world.repo, `!${i} ${payload}.txt`), 'x\n');
      for (const [i, sequence] of CONTROL_SEQUENCES.slice(0, 2).entries()) writeFileSync(join(world.repo, `!c${i} ${sequence}.txt`), 'x\n');
      const cwdLink = join(world.root, `cwd ${places.payload.payloads[0]}`);
      symlinkSync(world.repo, cwdLink);
      const env = { ...world.env, AGENT_CHECKPOINT_SLUG: places.env.payloads[0]! };

      const expected = await expectedForTurn1(world, rollout, env, cwdLink);
      expect(expected.decision, expected.diagnostics.join('; ')).toBe('message');
      // Precondition: the planted control sequences reach the message — escaped visibly by
      // getCheckpoint's model-text sanitizer (issue 12), so none is raw even before the typing step.
      expect(expected.message).toContain('\\x1b');
      expect(expected.message).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);

      const p = places.payload.payloads;
      const payload = JSON.stringify({
        ...(JSON.parse(world.payload(RECORDED.turn1, [RECORDED.prompt])) as Record<string, unknown>),
        cwd: cwdLink,
        'input-messages': [`${RECORDED.prompt} ${p[1]}`, `${RECORDED.prompt}`],
        'last-assistant-message': `done ${p[2]} ${CONTROL_SEQUENCES.join(' ')}`,
        // Unknown fields are carried but never used; a hostile `client` is refused (run below).
        'x-extra': p[3],
      });
      const run = await runNotifyBounded(bundle, [payload], { ...env, ...fake.env });
      expectNotifyContract(run);
      expect(run.outcome, run.stderr).toMatchObject({ kind: 'delivered' });

      const submitted = fake.submissions();
      expect(submitted).toHaveLength(1);
      // No C0 (but LF and TAB), no DEL, no C1 reached the composer…
      expect(submitted[0]).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      // …the TUI saw exactly one paste and one submission (no key, escape, interrupt or C-c)…
      expect(fake.events().map((e) => e.type)).toEqual(['ready', 'paste', 'submit']);
      // …and what was typed is getCheckpoint's text, sanitized (the route's rule, unit-tested in src/).
      expect(submitted[0]).toBe(sanitizeTypedText(expected.message!).replace(/\s+$/, ''));
      // A hostile client name: not the interactive TUI, so nothing is delivered (and nothing runs).
      const hostileClient = await runNotifyBounded(bundle, [JSON.stringify({ ...(JSON.parse(payload) as Record<string, unknown>), client: p[3] })], { ...env, ...fake.env });
      expectNotifyContract(hostileClient);
      expect(hostileClient.outcome).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/is not the interactive TUI/) });
      expect(fake.submissions()).toHaveLength(1);
      for (const [where, place] of Object.entries(places)) expect(existsSync(place.marker(home)), `a command planted in the ${where} ran`).toBe(false);
    }),
  );
});

describe('no path traversal through thread or turn ids', () => {
  it('hostile ids create files only inside the state directory', { timeout: 90_000 }, () =>
    withPane(async ({ world, fake }) => {
      world.writeRollout(RECORDED.turn1End, '[agent-checkpoint] ');
      const before = new Set(listTree(world.root));
      const ids: Array<[string, string]> = [
        ['../../../escaped', RECORDED.turn1],
        ['a..b', '../../escaped-turn'],
        [RECORDED.threadId, `${'../'.repeat(30)}tmp/escaped-deep`],
        ['x'.repeat(128), '/etc/escaped-abs'],
      ];
      for (const [threadId, turnId] of ids) {
        const payload = JSON.stringify({ ...(JSON.parse(world.payload(turnId, [RECORDED.prompt])) as Record<string, unknown>), 'thread-id': threadId });
        expectNotifyContract(await runNotifyBounded(bundle, [payload], { ...world.env, ...fake.env, AGENT_CHECKPOINT_DEBUG: '1' }));
      }
      const allowed = [world.stateDir, join(world.home, '.cache', 'agent-checkpoint')];
      const inside = (path: string): boolean => allowed.some((dir) => path === dir || path.startsWith(`${dir}/`) || dir.startsWith(`${path}/`));
      const created = listTree(world.root).filter((path) => !before.has(path));
      for (const path of created) expect(inside(path), `created outside the state dir: ${path}`).toBe(true);
      for (const outside of ['/etc/escaped-abs', '/tmp/escaped-deep', join(world.root, '..', 'escaped')]) expect(existsSync(outside), outside).toBe(false);
      // The recorded thread (with a hostile turn id) was still checkpointed: the id is data, not a path.
      expect(fake.submissions()).toHaveLength(1);
      const state = await readSessionState({ stateDir: world.stateDir, agent: 'codex', sessionId: RECORDED.threadId });
      expect(state.state.turns.map((t) => t.blocks)).toEqual([1]);
    }),
  );
});

function listTree(dir: string): string[] {
  const out: string[] = [];
  const visit = (path: string): void => {
    out.push(path);
    if (lstatSync(path).isDirectory() && !path.endsWith('/.git')) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return out;
}
