import { chownSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliverToPane, type DeliveryResult } from './deliver-to-pane.ts';
import { findCodexPane, type CodexPane } from './find-codex-pane.ts';
import { sanitizeTypedText } from './sanitize-typed-text.ts';
import { waitForIdlePrompt } from './verify-idle-prompt.ts';
import { FAKE_CODEX, startFakeCodex, startTestTmux, waitFor, type TestTmux } from './__fixtures__/tmux-test-server.ts';

let server: TestTmux;
beforeEach(async () => {
  server = await startTestTmux();
});
afterEach(async () => {
  await server.dispose();
});

async function paneOf(env: Record<string, string | undefined>): Promise<CodexPane> {
  const found = await findCodexPane(env);
  if (!found.ok) throw new Error(found.reason);
  return found.pane;
}

const MESSAGE = [
  '[checkpoint] Turn checkpoint',
  '',
  'Required actions:',
  '1. Run `pnpm test` (src/calc.ts changed after the last run)',
  '2. Restart the daemon: $ make restart && echo "ok"',
].join('\n');

describe('deliverToPane (real tmux, fake Codex TUI)', () => {
  it('submits a multi-line message exactly once, as one submission', async () => {
    const fake = await startFakeCodex(server);
    const result = await deliverToPane(await paneOf(fake.env), `${MESSAGE}\n\n`);
    expect(result).toEqual({ status: 'delivered', text: MESSAGE, enterPresses: 1 });
    await waitFor(() => fake.submissions().length === 1, 'one submission');
    expect(fake.submissions()).toEqual([MESSAGE]);
    expect(fake.events().map((e) => e.type)).toEqual(['ready', 'paste', 'submit']);
  });

  it('submits a large message (bracketed paste of several KiB) in one piece', async () => {
    const fake = await startFakeCodex(server);
    const large = Array.from({ length: 60 }, (_, i) => `line ${i}: command \`npm test\` exited 1 — FAIL src/foo.test.ts`).join('\n');
    const result = await deliverToPane(await paneOf(fake.env), large);
    expect(result.status).toBe('delivered');
    expect(fake.submissions()).toEqual([large]);
  });

  it('refuses while Codex is busy, typing nothing', async () => {
    const fake = await startFakeCodex(server, ['--start-busy-ms', '60000']);
    await waitFor(async () => (await fake.capture()).includes('esc to interrupt'), 'busy screen');
    const result = await deliverToPane(await paneOf(fake.env), MESSAGE, { idleWaitMs: 300 });
    expect(result).toEqual({ status: 'refused', reason: 'Codex is busy (a turn is running)' });
    expect(fake.events().map((e) => e.type)).toEqual(['ready']);
  });

  it('waits for a turn that is just ending, then submits', async () => {
    const fake = await startFakeCodex(server, ['--start-busy-ms', '700']);
    const pane = await paneOf(fake.env);
    const result = await deliverToPane(pane, 'after the turn', { idleWaitMs: 5000 });
    expect(result.status).toBe('delivered');
    expect(fake.submissions()).toEqual(['after the turn']);
  });

  it('refuses when the composer holds the user’s draft, leaving the draft alone', async () => {
    const fake = await startFakeCodex(server);
    await server.tmux('send-keys', '-t', fake.paneId, '-l', 'my own half-written prompt');
    await waitFor(async () => !(await fake.capture()).includes('? for shortcuts'), 'draft in composer');
    const result = await deliverToPane(await paneOf(fake.env), MESSAGE, { idleWaitMs: 300 });
    expect(result.status).toBe('refused');
    expect((await fake.capture()).includes('my own half-written prompt')).toBe(true);
    expect(fake.events().filter((e) => e.type !== 'ready')).toEqual([]);
  });

  it('delivers hostile text inert: no key, no escape, no early paste end, no interrupt', async () => {
    const fake = await startFakeCodex(server);
    const hostile = [
      '[checkpoint] output excerpt:',
      'colour \x1b[31mFAIL\x1b[0m and a C-c \x03 here',
      'paste end \x1b[201~\rrm -rf ~\r then more',
      'clipboard \x1b]52;c;ZXZpbA==\x07 and NUL \x00 and DEL \x7f and C1 \x9b2J',
      'lone escape \x1b at the end \x1b',
    ].join('\n');
    const expected = sanitizeTypedText(hostile).replace(/\s+$/, '');
    const result = await deliverToPane(await paneOf(fake.env), hostile);
    expect(result.status).toBe('delivered');
    expect(fake.submissions()).toEqual([expected]);
    expect(expected).toContain('rm -rf ~');
    // Nothing but the one paste and the one submission reached the TUI, and it is still running.
    expect(fake.events().map((e) => e.type)).toEqual(['ready', 'paste', 'submit']);
    const submitted = fake.submissions()[0] ?? '';
    expect(submitted).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(await fake.capture()).toContain('Fake Codex');
  });

  it('presses Enter a second time when the first one is swallowed', async () => {
    const fake = await startFakeCodex(server, ['--swallow-enters', '1']);
    const result = await deliverToPane(await paneOf(fake.env), 'retry me', { confirmTimeoutMs: 600 });
    expect(result).toEqual({ status: 'delivered', text: 'retry me', enterPresses: 2 });
    expect(fake.submissions()).toEqual(['retry me']);
    expect(fake.events().filter((e) => e.type === 'swallowed-enter')).toHaveLength(1);
  });

  it('reports failure after two swallowed Enters and presses no more', async () => {
    const fake = await startFakeCodex(server, ['--swallow-enters', '5']);
    const result: DeliveryResult = await deliverToPane(await paneOf(fake.env), 'stuck', { confirmTimeoutMs: 400 });
    expect(result).toMatchObject({ status: 'failed', typed: true });
    expect(fake.submissions()).toEqual([]);
    expect(fake.events().filter((e) => e.type === 'swallowed-enter')).toHaveLength(2);
  });

  it('refuses an empty message', async () => {
    const fake = await startFakeCodex(server);
    const result = await deliverToPane(await paneOf(fake.env), '\x1b[31m\x1b[0m\n\n');
    expect(result.status).toBe('refused');
    expect(fake.events().map((e) => e.type)).toEqual(['ready']);
  });

  it('refuses when the pane entered copy mode after it was found', async () => {
    const fake = await startFakeCodex(server);
    const pane = await paneOf(fake.env);
    await server.tmux('copy-mode', '-t', fake.paneId);
    const result = await deliverToPane(pane, MESSAGE, { idleWaitMs: 0 });
    expect(result.status).toBe('refused');
    expect(fake.events().map((e) => e.type)).toEqual(['ready']);
  });
});

describe('waitForIdlePrompt (real tmux, fake Codex TUI)', () => {
  it('needs two idle captures at least the gap apart, or one more after an earlier idle capture', async () => {
    const fake = await startFakeCodex(server);
    const pane = await paneOf(fake.env);
    const started = Date.now();
    expect(await waitForIdlePrompt(pane, { waitMs: 0 })).toEqual({ ok: true, samples: 2 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(await waitForIdlePrompt(pane, { waitMs: 0, idleSeenAt: Date.now() - 300 })).toEqual({ ok: true, samples: 1 });
    // An earlier idle capture that is too recent still needs the gap.
    expect(await waitForIdlePrompt(pane, { waitMs: 0, idleSeenAt: Date.now() })).toEqual({ ok: true, samples: 2 });
  });

  it('does not take an earlier idle capture for a pane that is busy now', async () => {
    const fake = await startFakeCodex(server, ['--start-busy-ms', '60000']);
    await waitFor(async () => (await fake.capture()).includes('esc to interrupt'), 'busy screen');
    const result = await waitForIdlePrompt(await paneOf(fake.env), { waitMs: 0, idleSeenAt: Date.now() - 1000 });
    expect(result).toMatchObject({ ok: false, lastState: 'busy' });
  });
});

describe('findCodexPane (real tmux)', () => {
  it('finds the fake Codex launched as node …/codex.js', async () => {
    const fake = await startFakeCodex(server);
    const found = await findCodexPane(fake.env);
    expect(found.ok).toBe(true);
    if (found.ok) {
      expect(found.pane.paneId).toBe(fake.paneId);
      expect(found.pane.codex.argv[1]).toMatch(/codex\.js$/);
    }
  });

  it.each([
    ['cat', ['cat']],
    ['bash', ['bash', '--norc', '--noprofile']],
  ])('refuses a pane running %s', async (_name, argv) => {
    const pane = await server.startPane(argv);
    const found = await findCodexPane(pane.env);
    expect(found).toMatchObject({ ok: false });
    if (!found.ok) expect(found.reason).toMatch(/no Codex process/);
  });

  it('refuses a shell that merely prints the idle hint', async () => {
    const pane = await server.startPane(['bash', '--norc', '--noprofile']);
    await server.tmux('send-keys', '-t', pane.paneId, '-l', "printf '› Ask Codex to do anything\\n  ? for shortcuts\\n'");
    await server.tmux('send-keys', '-t', pane.paneId, 'Enter');
    await waitFor(async () => (await pane.capture()).includes('\n  ? for shortcuts'), 'hint printed');
    expect((await findCodexPane(pane.env)).ok).toBe(false);
  });

  it('refuses a Codex suspended under a shell (not in the foreground)', async () => {
    const pane = await server.startPane(['bash', '--norc', '--noprofile', '-i']);
    const record = `${server.dir}/suspended.jsonl`;
    await server.tmux('send-keys', '-t', pane.paneId, '-l', `${process.execPath} ${JSON.stringify(FAKE_CODEX)} --record ${record}`);
    await server.tmux('send-keys', '-t', pane.paneId, 'Enter');
    await waitFor(async () => (await pane.capture()).includes('? for shortcuts'), 'fake started under bash');
    expect((await findCodexPane(pane.env)).ok).toBe(true);
    await server.tmux('send-keys', '-t', pane.paneId, 'C-z');
    await waitFor(async () => /Stopped/.test(await pane.capture()), 'job stopped');
    const found = await findCodexPane(pane.env);
    expect(found).toMatchObject({ ok: false });
    if (!found.ok) expect(found.reason).toMatch(/not in the foreground/);
  });

  it('refuses a pane id that does not exist', async () => {
    const fake = await startFakeCodex(server);
    const found = await findCodexPane({ ...fake.env, TMUX_PANE: '%999' });
    expect(found).toEqual({ ok: false, reason: 'pane %999 does not exist on the tmux server' });
    expect(fake.events().map((e) => e.type)).toEqual(['ready']);
  });

  it('refuses outside tmux and with malformed variables', async () => {
    const fake = await startFakeCodex(server);
    expect((await findCodexPane({ TMUX_PANE: fake.paneId })).ok).toBe(false);
    expect((await findCodexPane({ TMUX: fake.env.TMUX })).ok).toBe(false);
    expect((await findCodexPane({ ...fake.env, TMUX_PANE: '0' })).ok).toBe(false);
    expect((await findCodexPane({ ...fake.env, TMUX: 'relative/sock,1,0' })).ok).toBe(false);
  });

  it('refuses when TMUX names another server pid (stale or forged variable)', async () => {
    const fake = await startFakeCodex(server);
    const forged = fake.env.TMUX.replace(/,(\d+),0$/, (_m, pid: string) => `,${Number(pid) + 1},0`);
    const found = await findCodexPane({ ...fake.env, TMUX: forged });
    expect(found).toMatchObject({ ok: false });
    if (!found.ok) expect(found.reason).toMatch(/server pid/);
  });

  it('refuses a pane with synchronize-panes on', async () => {
    const fake = await startFakeCodex(server);
    await server.tmux('set-option', '-w', '-t', fake.paneId, 'synchronize-panes', 'on');
    const found = await findCodexPane(fake.env);
    expect(found).toMatchObject({ ok: false });
    if (!found.ok) expect(found.reason).toMatch(/synchronize-panes/);
  });

  it.runIf(process.getuid?.() === 0)('refuses a socket owned by another user', async () => {
    const fake = await startFakeCodex(server);
    chownSync(server.socketPath, 65534, 65534);
    const found = await findCodexPane(fake.env);
    expect(found).toMatchObject({ ok: false });
    if (!found.ok) expect(found.reason).toMatch(/owned by uid 65534/);
  });
});
