// The physical floor of this design, as a process: what any hook with the same two signals must do at
// least — start node, read the payload, run `git rev-parse` and `git status` (in parallel, as core does)
// and read the transcript's last 64 KiB — and nothing else (no engine, no state, no bundle to load).
//
//   node minimal-hook.mjs   (payload JSON on stdin: cwd, transcript_path)
import { execFile } from 'node:child_process';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';

const payload = JSON.parse(readFileSync(0, 'utf8')) as { cwd: string; transcript_path: string };
const git = (args: string[]): Promise<string> =>
  new Promise((resolve, reject) =>
    execFile('git', ['--no-optional-locks', ...args], { cwd: payload.cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    ),
  );
const status = git(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all']);
const top = git(['rev-parse', '--show-toplevel']);
const fd = openSync(payload.transcript_path, 'r');
const size = fstatSync(fd).size;
const tail = Buffer.allocUnsafe(Math.min(size, 64 * 1024));
readSync(fd, tail, 0, tail.length, size - tail.length);
closeSync(fd);
const [out] = await Promise.all([status, top]);
process.stdout.write(out.length > 0 && tail.length > 0 ? '' : '');
