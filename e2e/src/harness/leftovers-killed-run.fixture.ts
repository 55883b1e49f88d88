// A stand-in for an e2e run that gets SIGKILLed (leftovers.test.ts): it owns what it creates, as
// the vitest global setup makes a run do, starts what real runs leave behind, prints where, waits.
import { spawn } from 'node:child_process';
import { isolatedEnv } from './isolated-env.ts';
import { claimOwnership } from './leftovers.ts';
import { createTempWorkspace } from './temp-workspace.ts';
import { TmuxServer } from './tmux.ts';

claimOwnership();
const workspace = createTempWorkspace({ files: { 'README.md': 'leftover\n' } });
const env = isolatedEnv(workspace);
// A private tmux server (as the Codex TUI tests start), its socket under the test's TMUX_TMPDIR.
const tmux = TmuxServer.start({ cwd: workspace.repo, env: { ...env, TMUX_TMPDIR: process.env['TMUX_TMPDIR'] ?? '' }, argv: ['sleep', '3600'], configDir: workspace.logs });
// A daemon with the run marker (as `codex app-server daemon` inherits it) and one that only has the
// workspace's HOME (a helper that rebuilt its environment), both out of the run's process group.
const marked = spawn('sleep', ['3600'], { env, detached: true, stdio: 'ignore' });
const homeOnly = spawn('sleep', ['3601'], { env: { PATH: env['PATH'] ?? '/usr/bin:/bin', HOME: workspace.home }, detached: true, stdio: 'ignore' });
// A process of the run itself (as a vitest worker it orphans), with the run's owner token.
const worker = spawn('sleep', ['3602'], { env: process.env, detached: true, stdio: 'ignore' });
for (const child of [marked, homeOnly, worker]) child.unref();
process.stdout.write(`${JSON.stringify({ root: workspace.root, socket: tmux.socketName, pids: [marked.pid, homeOnly.pid, worker.pid] })}\n`);
setInterval(() => {}, 60_000);
