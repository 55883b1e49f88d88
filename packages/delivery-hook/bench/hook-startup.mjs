#!/usr/bin/env node
// Startup cost of the bundled hook, as an agent pays it at every turn end: wall time and peak RSS of
// `node dist/agent-checkpoint-hook.cjs <agent>` on real payloads, next to a bare `node -e ''`.
//
//   node bench/hook-startup.mjs [runs]      (build first: pnpm --filter @agent-checkpoint/delivery-hook build)
//
// Cases: the escape hatch (stop_hook_active: true, the cheapest pass), a full pass on a clean
// repository (config + transcript + git, nothing changed: the common silent stop), and a full block on
// a turn that changed a file.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bundle = join(here, '..', 'dist', 'agent-checkpoint-hook.cjs');
const preload = join(here, 'report-rss.mjs');
const runs = Number(process.argv[2] ?? 20);

const root = realpathSync(mkdtempSync(join(tmpdir(), 'ac-bench-')));
try {
  const home = join(root, 'home');
  const repo = join(root, 'repo');
  mkdirSync(home);
  mkdirSync(repo);
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    AGENT_CHECKPOINT_STATE_DIR: join(root, 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
    GIT_AUTHOR_NAME: 'b',
    GIT_AUTHOR_EMAIL: 'b@example.invalid',
    GIT_COMMITTER_NAME: 'b',
    GIT_COMMITTER_EMAIL: 'b@example.invalid',
  };
  const git = (...args) => execFileSync('git', args, { cwd: repo, env, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'notes.txt'), 'alpha\ngamma\n');
  writeFileSync(join(repo, '.gitignore'), '.agent-checkpoint.json\n');
  writeFileSync(
    join(repo, '.agent-checkpoint.json'),
    JSON.stringify({ categories: [{ id: 'notes', include: ['notes.txt'], action: 'Run `check-notes`.', evidence: ['check-notes'] }], loopGuard: { minTurnSeconds: 0 } }),
  );
  git('add', '-A');
  // Committed long before the recorded turns, so nothing counts as committed during them.
  execFileSync('git', ['commit', '-q', '-m', 'init'], {
    cwd: repo,
    env: { ...env, GIT_AUTHOR_DATE: '@1577836800 +0000', GIT_COMMITTER_DATE: '@1577836800 +0000' },
    stdio: 'ignore',
  });
  const fixtures = join(here, '..', '..', '..', 'fixtures', 'claude', '2.1.330');
  // A turn with a failing command and an edit (actionable), and a turn that only ran a successful
  // command (with a clean repository: nothing to say).
  const turns = {
    actionable: { file: 'stop-hook-exit1.jsonl', promptId: 'b9fdfc10-e938-49ab-b40e-8495d0446421', last: 'All done: notes.txt now says alpha/gamma.' },
    clean: { file: 'tui-midturn-queued-prompt.jsonl', promptId: '329cb3c0-a03a-4e52-ab0d-b1fe5e048980', last: 'second answer' },
  };
  for (const turn of Object.values(turns)) copyFileSync(join(fixtures, turn.file), join(root, turn.file));
  // Each run is another session (a fresh loop-guard state) on the recorded turn.
  const payload = (turnName, stopHookActive, sessionId) => {
    const turn = turns[turnName];
    return JSON.stringify({
      session_id: sessionId,
      transcript_path: join(root, turn.file),
      cwd: repo,
      prompt_id: turn.promptId,
      hook_event_name: 'Stop',
      stop_hook_active: stopHookActive,
      last_assistant_message: turn.last,
      background_tasks: [],
    });
  };

  const measure = (label, args, input, prepare) => {
    const walls = [];
    const rss = [];
    let stdout = '';
    for (let i = 0; i < runs; i += 1) {
      prepare?.(i);
      const start = process.hrtime.bigint();
      const r = spawnSync(process.execPath, ['--import', preload, ...args], { input: input?.(i) ?? '', env: { ...env, AGENT_CHECKPOINT_DEBUG: process.env.BENCH_DEBUG ?? '' }, encoding: 'utf8' });
      if (process.env.BENCH_DEBUG && i === 0) process.stderr.write(r.stderr);
      walls.push(Number(process.hrtime.bigint() - start) / 1e6);
      rss.push(Number(/MAXRSS_KB=(\d+)/.exec(r.stderr)?.[1] ?? NaN) / 1024);
      if (r.status !== 0) throw new Error(`${label}: exit ${r.status}: ${r.stderr}`);
      stdout = r.stdout;
    }
    const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
    console.log(
      `${label.padEnd(52)} wall median ${med(walls).toFixed(1).padStart(6)} ms  p90 ${p90(walls).toFixed(1).padStart(6)} ms  peak RSS median ${med(rss).toFixed(1).padStart(5)} MiB  stdout ${stdout === '' ? 'empty' : `${stdout.length} bytes`}`,
    );
  };

  console.log(`node ${process.version}, ${runs} runs each, bundle ${bundle}`);
  measure("node -e ''", ['-e', ''], undefined);
  measure('hook claude, stop_hook_active: true (escape hatch)', [bundle, 'claude'], () => payload('actionable', true, 's-escape'));
  measure('hook claude, clean repo (full pipeline, silent)', [bundle, 'claude'], (i) => payload('clean', false, `s-clean-${i}`));
  measure('hook claude, changed file (full pipeline, block)', [bundle, 'claude'], (i) => payload('actionable', false, `s-block-${i}`), () =>
    writeFileSync(join(repo, 'notes.txt'), `alpha\ngamma\nchanged ${Date.now()}\n`),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
