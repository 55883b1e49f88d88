import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TmuxServer } from './tmux.ts';

describe('TmuxServer', () => {
  it('runs a program on a private socket, types and pastes into it, and is gone after kill', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ac-e2e-tmux-test-'));
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, TERM: 'xterm-256color', TMUX_TMPDIR: dir };
    const server = TmuxServer.start({ cwd: dir, env, argv: ['cat'], configDir: dir, width: 80, height: 20 });
    try {
      expect(server.socketName).toMatch(/^ac-e2e-o\d+-\d+-[0-9a-f]{8}$/);
      expect(server.paneAlive()).toBe(true);
      expect(server.paneId()).toMatch(/^%\d+$/);
      server.typeLiteral('typed-text');
      server.sendKeys('Enter');
      server.paste('pasted-text\n');
      const screen = await server.waitForScreen((s) => s.includes('typed-text') && s.includes('pasted-text'), { timeoutMs: 5000, what: 'both texts' });
      expect(screen).toContain('typed-text');
    } finally {
      server.kill();
      rmSync(dir, { recursive: true, force: true });
    }
    const probe = spawnSync('tmux', ['-L', server.socketName, 'list-sessions'], { env, encoding: 'utf8' });
    expect(probe.status).not.toBe(0);
  });

  it('reports the screen when a wait times out', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ac-e2e-tmux-test-'));
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, TERM: 'xterm-256color', TMUX_TMPDIR: dir };
    const server = TmuxServer.start({ cwd: dir, env, argv: ['sh', '-c', 'echo visible-marker; exec cat'], configDir: dir });
    try {
      await expect(server.waitForScreen((s) => s.includes('never-there'), { timeoutMs: 400, what: 'nothing' })).rejects.toThrow(/visible-marker/);
    } finally {
      server.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pressUntil presses again until the screen shows the effect (a first press a TUI dropped)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ac-e2e-tmux-test-'));
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, TERM: 'xterm-256color', TMUX_TMPDIR: dir };
    // Drops every key that arrives in its first 600 ms (as a TUI setting the terminal up does), then
    // reports the next one.
    const program = "let armed = false; process.stdin.setRawMode(true); process.stdin.on('data', (d) => { if (armed) { console.log('pressed:' + d); } else console.log('dropped'); }); setTimeout(() => { armed = true; }, 600);";
    const server = TmuxServer.start({ cwd: dir, env, argv: [process.execPath, '-e', program], configDir: dir });
    try {
      const screen = await server.pressUntil(['x'], (s) => s.includes('pressed:x'), { timeoutMs: 10_000, what: 'the press', retryMs: 300 });
      expect(screen).toContain('pressed:x');
      await expect(server.pressUntil(['y'], (s) => s.includes('never-there'), { timeoutMs: 500, what: 'nothing', retryMs: 200 })).rejects.toThrow(/pressed:y/);
    } finally {
      server.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
