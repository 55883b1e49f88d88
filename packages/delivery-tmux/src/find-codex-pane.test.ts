import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestTmux, waitFor, type TestTmux } from './__fixtures__/tmux-test-server.ts';
import { findCodexPane, findForegroundCodex, isCodexArgv, paneStateProblem, parseTmuxEnv, type PaneState } from './find-codex-pane.ts';
import { parseProcStat, readProcessSubtree, subtreePids, type ProcessInfo } from './read-process-table.ts';

describe('isCodexArgv', () => {
  it.each([
    [['node', '/usr/lib/node_modules/@openai/codex/bin/codex.js']],
    [['/usr/local/bin/node', '/home/u/.npm-global/bin/codex', '--no-daemon']],
    [['node', '--enable-source-maps', '/x/codex.js', 'resume']],
    [['/usr/lib/node_modules/@openai/codex/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex']],
    [['codex', '--dangerously-bypass-hook-trust']],
    [['/opt/codex/codex-x86_64-unknown-linux-musl']],
    [['/usr/bin/nodejs', 'codex.mjs']],
  ])('recognises %j', (argv) => {
    expect(isCodexArgv(argv)).toBe(true);
  });

  it.each([
    [['bash']],
    [['cat']],
    [['node', '/x/server.js', 'codex.js']],
    [['vim', 'codex.js']],
    [['python3', 'codex.py']],
    [['/usr/bin/codex-helper']],
    [['node']],
    [[]],
  ])('rejects %j', (argv) => {
    expect(isCodexArgv(argv)).toBe(false);
  });
});

describe('parseTmuxEnv', () => {
  it('reads socket path and server pid, allowing commas in the path', () => {
    expect(parseTmuxEnv('/tmp/tmux-0/default,8588,0')).toEqual({ socketPath: '/tmp/tmux-0/default', serverPid: 8588 });
    expect(parseTmuxEnv('/tmp/a,b/sock,12,3')).toEqual({ socketPath: '/tmp/a,b/sock', serverPid: 12 });
  });
  it.each([undefined, '', 'default,1,0', '/tmp/s', '/tmp/s,x,0'])('rejects %j', (value) => {
    expect(parseTmuxEnv(value)).toBeUndefined();
  });
});

describe('parseProcStat', () => {
  it('counts fields after the last parenthesis (command names may contain them)', () => {
    const stat = '4242 (my (weird) cmd) S 100 4242 100 34816 4242 4194304 0 0 0 0';
    expect(parseProcStat(stat)).toEqual({ pid: 4242, ppid: 100, pgrp: 4242, tpgid: 4242 });
  });
  it('rejects garbage', () => {
    expect(parseProcStat('nonsense')).toBeUndefined();
  });
});

describe('subtreePids', () => {
  it('walks children breadth-first, ignoring cycles and other trees', () => {
    const procs = [
      { pid: 1, ppid: 0 },
      { pid: 10, ppid: 1 },
      { pid: 11, ppid: 10 },
      { pid: 12, ppid: 10 },
      { pid: 13, ppid: 11 },
      { pid: 20, ppid: 1 },
    ];
    expect(subtreePids(10, procs, 100)).toEqual([10, 11, 12, 13]);
    expect(subtreePids(10, procs, 2)).toEqual([10, 11]);
  });
});

const proc = (pid: number, ppid: number, pgrp: number, tpgid: number, argv: string[]): [number, ProcessInfo] => [
  pid,
  { pid, ppid, pgrp, tpgid, argv },
];

describe('findForegroundCodex', () => {
  it('finds the native binary under the node launcher in the foreground group', () => {
    const tree = new Map([
      proc(100, 1, 100, 200, ['-bash']),
      proc(200, 100, 200, 200, ['node', '/x/bin/codex.js']),
      proc(201, 200, 200, 200, ['/x/vendor/x86_64-unknown-linux-musl/bin/codex']),
    ]);
    const found = findForegroundCodex(tree, 100);
    expect(found.ok && found.process.pid).toBe(200);
  });

  it('refuses a Codex that is not the foreground job', () => {
    const tree = new Map([proc(100, 1, 100, 100, ['-bash']), proc(200, 100, 200, 100, ['codex'])]);
    expect(findForegroundCodex(tree, 100)).toEqual({ ok: false, reason: 'Codex runs in it but is not in the foreground' });
  });

  it('refuses a pane without Codex, naming what runs there', () => {
    const tree = new Map([proc(100, 1, 100, 300, ['-bash']), proc(300, 100, 300, 300, ['vim', 'notes.md'])]);
    const found = findForegroundCodex(tree, 100);
    expect(found).toEqual({ ok: false, reason: 'no Codex process runs in it (found: -bash, vim)' });
  });

  it('refuses a foreground group Codex shares with another program, also one outside the pane subtree', () => {
    const shared = new Map([proc(100, 1, 100, 100, ['cat']), proc(101, 100, 100, 100, ['node', '/x/codex.js'])]);
    expect(findForegroundCodex(shared, 100)).toEqual({ ok: false, reason: expect.stringMatching(/another program: cat \(100\)/) });
    const orphan = new Map([
      proc(100, 1, 100, 200, ['-bash']),
      proc(200, 100, 200, 200, ['codex']),
      proc(300, 1, 200, 200, ['python3', 'reader.py']),
    ]);
    expect(findForegroundCodex(orphan, 100)).toEqual({ ok: false, reason: expect.stringMatching(/another program: python3 \(300\)/) });
  });

  it('accepts the programs Codex itself runs in its group (notify, hooks)', () => {
    const tree = new Map([
      proc(100, 1, 100, 200, ['-bash']),
      proc(200, 100, 200, 200, ['node', '/x/bin/codex.js']),
      proc(201, 200, 200, 200, ['/x/vendor/x86_64-unknown-linux-musl/bin/codex']),
      proc(202, 201, 200, 200, ['node', '/x/agent-checkpoint-tmux.mjs', '{}']),
      proc(203, 202, 200, 200, ['tmux', 'list-panes']),
    ]);
    const found = findForegroundCodex(tree, 100);
    expect(found.ok && found.process.pid).toBe(200);
  });

  it('refuses when the pane process is gone', () => {
    expect(findForegroundCodex(new Map(), 100).ok).toBe(false);
  });
});

describe('paneStateProblem', () => {
  const ok: PaneState = {
    paneId: '%1',
    panePid: 1,
    serverPid: 2,
    dead: false,
    inMode: false,
    synchronized: false,
    inputOff: false,
  };
  it('accepts a plain live pane, also when tmux cannot tell the bracketed-paste state', () => {
    expect(paneStateProblem(ok)).toBeUndefined();
    expect(paneStateProblem({ ...ok, bracketPaste: true })).toBeUndefined();
  });
  it.each([
    [{ dead: true }, /dead/],
    [{ inMode: true }, /mode/],
    [{ synchronized: true }, /synchronize-panes/],
    [{ inputOff: true }, /input disabled/],
    [{ bracketPaste: false }, /bracketed paste/],
  ])('refuses %j', (patch, reason) => {
    expect(paneStateProblem({ ...ok, ...patch })).toMatch(reason);
  });
});

describe('findCodexPane foreground check (real tmux, real processes)', () => {
  let server: TestTmux;
  let scriptDir: string;
  let idleCodex: string;
  beforeEach(async () => {
    server = await startTestTmux();
    // A program that looks like Codex to the process check (node running a file named codex.js).
    scriptDir = mkdtempSync(join(tmpdir(), 'ac-fg-codex-'));
    idleCodex = join(scriptDir, 'codex.js');
    writeFileSync(idleCodex, 'setInterval(() => {}, 1000);\n');
  });
  afterEach(async () => {
    await server.dispose();
    rmSync(scriptDir, { recursive: true, force: true });
  });

  const foregroundGroup = async (paneId: string): Promise<string[]> => {
    const panePid = Number((await server.tmux('display-message', '-p', '-t', paneId, '#{pane_pid}')).trim());
    const tree = await readProcessSubtree(panePid);
    const root = tree?.get(panePid);
    return [...(tree?.values() ?? [])].filter((p) => p.pgrp === root?.tpgid).map((p) => basename(p.argv[0] ?? ''));
  };

  it('accepts a pane whose foreground process group is Codex alone', async () => {
    const pane = await server.startPane([process.execPath, idleCodex]);
    await waitFor(async () => (await foregroundGroup(pane.paneId)).includes(basename(process.execPath)), 'codex running');
    const found = await findCodexPane(pane.env);
    expect(found.ok).toBe(true);
  });

  it('fails closed when Codex shares the foreground process group with another program', async () => {
    // `sh -c` without job control: the backgrounded "codex" stays in the foreground group, and cat
    // (exec'd in place of sh, the group leader) is the program that would read the typed keys.
    const pane = await server.startPane(['/bin/sh', '-c', `'${process.execPath}' '${idleCodex}' & exec cat`]);
    await waitFor(async () => {
      const group = await foregroundGroup(pane.paneId);
      return group.includes('cat') && group.includes(basename(process.execPath));
    }, 'codex and cat in one foreground group');
    const found = await findCodexPane(pane.env);
    expect(found).toEqual({ ok: false, reason: expect.stringMatching(/shares the foreground process group with another program: cat/) });
  });
});
