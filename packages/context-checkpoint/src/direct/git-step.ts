import { runGit, type GitWriteProfile, type RunGitResult } from '@agent-checkpoint/core';

/** Where and how direct execution runs git. */
export interface GitContext {
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly gitBinary?: string;
  readonly signal?: AbortSignal;
  /** Core's write profile (`openDirectGitProfile`); without it the call is a read. */
  readonly profile?: GitWriteProfile;
}

/** A git call's outcome, flattened for logging: `ok` means exit code 0. */
export interface GitOutcome {
  readonly ok: boolean;
  /** Exit code when git exited. */
  readonly code?: number;
  readonly stdout: string;
  readonly stderr: string;
  /** One line describing a failure (`exit 1: fatal: …`, `timed out after 30000 ms`). Empty when ok. */
  readonly message: string;
}

/**
 * Run one git command through core's time-limited runner (killed with its process group at the
 * limit; no terminal prompts; `LC_ALL=C`). Never throws.
 *
 * With `ctx.profile`, core's write profile: nothing the repository's configuration names runs (no
 * hook but those the user named, no signing, SSH or askpass program, credential helper, `ext::`
 * transport or receive-pack of the repository's choosing, no repository-defined filter driver);
 * the user's own git settings apply. Without it, core's read profile.
 */
export async function gitStep(args: readonly string[], ctx: GitContext): Promise<GitOutcome> {
  const result = await runGit(args, {
    cwd: ctx.cwd,
    timeoutMs: ctx.timeoutMs,
    ...(ctx.profile !== undefined ? { profile: ctx.profile } : {}),
    ...(ctx.env !== undefined ? { env: ctx.env } : {}),
    ...(ctx.gitBinary !== undefined ? { gitBinary: ctx.gitBinary } : {}),
    ...(ctx.signal !== undefined ? { signal: ctx.signal } : {}),
  });
  return flatten(result);
}

function flatten(result: RunGitResult): GitOutcome {
  switch (result.kind) {
    case 'exited': {
      const stdout = result.stdout.toString('utf8');
      const ok = result.code === 0;
      const detail = firstMeaningfulLine(result.stderr) ?? firstMeaningfulLine(stdout) ?? '';
      return { ok, code: result.code, stdout, stderr: result.stderr, message: ok ? '' : `exit ${result.code}${detail !== '' ? `: ${detail}` : ''}` };
    }
    case 'timeout':
      return { ok: false, stdout: '', stderr: '', message: `timed out after ${result.ms} ms` };
    case 'aborted':
      return { ok: false, stdout: '', stderr: '', message: 'aborted' };
    case 'spawn-error':
      return { ok: false, stdout: '', stderr: '', message: `cannot run git: ${result.message}` };
    case 'killed':
      return { ok: false, stdout: '', stderr: result.stderr, message: `killed by ${result.signal}` };
    case 'output-too-large':
      return { ok: false, stdout: '', stderr: '', message: `output over ${result.limit} bytes` };
  }
}

/** The most telling line of git's output: the first `fatal:`/`error:`/`hint:`-free one that is not empty. */
function firstMeaningfulLine(text: string): string | undefined {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const fatal = lines.find((l) => /^(fatal|error):/.test(l));
  const line = fatal ?? lines.find((l) => !l.startsWith('hint:'));
  return line === undefined ? undefined : line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
