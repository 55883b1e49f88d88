import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentSession, HeadlessArgv } from './agent-session.ts';
import { runInGroup, type ProcessResult } from './process-group.ts';
import { isolatedGitEnv, type TempWorkspace } from './temp-workspace.ts';
import { shellQuote } from '../mock/native-tool-calls.ts';

/** A session whose CLI can be started fresh, headless, from a shell script. */
export interface LoopCapableSession extends AgentSession {
  headlessArgv(): HeadlessArgv;
}

/** One pass of the loop: the CLI run and the commit the script made right after it. */
export interface LoopIteration {
  /** 1-based. */
  readonly index: number;
  readonly prompt: string;
  /** Script clock (`date +%s%N`, in ms) just before the CLI started. */
  readonly cliStartedAtMs: number;
  readonly cliExitCode: number;
  readonly cliExitedAtMs: number;
  /** `git commit` exit code. */
  readonly commitExitCode: number;
  /** Script clock right after `git commit` returned, in ms. */
  readonly committedAtMs: number;
  /** The commit the script made (HEAD after it). */
  readonly commit: {
    readonly oid: string;
    /** Git's committer time: whole seconds, as every reader of the repository sees it. */
    readonly committerSecond: number;
    /** Modification time of the commit's loose object file (ns-precise on Linux), in ms. */
    readonly objectMtimeMs: number;
  };
  readonly stdout: string;
  readonly stderr: string;
}

export interface LoopRun {
  readonly script: string;
  readonly process: ProcessResult;
  readonly iterations: readonly LoopIteration[];
}

/**
 * The loop runner users write around headless agents, as a real bash script: for each prompt, one
 * fresh `claude -p` / `gemini -p` / `codex exec` run, then `git add -A && git commit` as soon as the
 * CLI exits, so the next run starts right after a commit.
 *
 * Before each commit the script waits for the next wall-clock second to begin (at most 1 s): the
 * commit then lands in the first few ms of a second, and a CLI whose start-up (process start to the
 * prompt's transcript time) is shorter than the rest of that second starts its turn in the same
 * second as the commit — the case git's 1-second commit times cannot order. Whether that happened
 * is not assumed: callers compare `commit.committerSecond` with the turn start of the next run's
 * transcript.
 */
export async function runLoop(session: LoopCapableSession, prompts: readonly string[], options: { readonly timeoutMs: number }): Promise<LoopRun> {
  const { logs, repo } = session.workspace;
  const { beforePrompt, afterPrompt } = session.headlessArgv();
  const script = path.join(logs, 'loop-runner.sh');
  const events = path.join(logs, 'loop-events.txt');
  const cli = (words: readonly string[]): string => words.map(shellQuote).join(' ');
  writeFileSync(
    script,
    [
      '#!/usr/bin/env bash',
      '# A loop runner: one fresh headless agent run per prompt, committing everything after each run.',
      'set -u',
      'events="$1"; logs="$2"; shift 2',
      'now() { date +%s%N; }',
      '# Sleep until the next wall-clock second begins (the commit then opens that second).',
      'align_to_next_second() {',
      '  local ns rest',
      '  ns=$(date +%N); rest=$((1000000000 - 10#$ns))',
      '  sleep "$((rest / 1000000000)).$(printf %09d $((rest % 1000000000)))"',
      '}',
      'i=0',
      'for prompt in "$@"; do',
      '  i=$((i + 1))',
      '  echo "start $i $(now)" >> "$events"',
      `  ${cli(beforePrompt)} "$prompt" ${cli(afterPrompt)} > "$logs/loop-$i.stdout" 2> "$logs/loop-$i.stderr" < /dev/null`,
      '  rc=$?',
      '  echo "exit $i $rc $(now)" >> "$events"',
      '  align_to_next_second',
      '  git add -A && git commit -q -m "loop iteration $i"',
      '  rc=$?',
      '  echo "commit $i $rc $(now)" >> "$events"',
      'done',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  const result = await runInGroup(['bash', script, events, logs, ...prompts], { cwd: repo, env: session.env(), timeoutMs: options.timeoutMs });
  session.runs.push(result);
  if (result.timedOut || result.exitCode !== 0) throw new Error(`loop runner failed (exit ${String(result.exitCode)}, timed out: ${String(result.timedOut)}):\n${result.stderr.slice(-2000)}`);
  return { script, process: result, iterations: readIterations(session.workspace, events, prompts) };
}

function readIterations(workspace: Pick<TempWorkspace, 'repo' | 'home' | 'logs'>, eventsFile: string, prompts: readonly string[]): LoopIteration[] {
  const { repo, logs } = workspace;
  const events = readFileSync(eventsFile, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split(' '));
  const event = (kind: string, index: number): string[] => {
    const found = events.find((e) => e[0] === kind && Number(e[1]) === index);
    if (found === undefined) throw new Error(`loop runner: no "${kind}" event for iteration ${index}`);
    return found;
  };
  const nsToMs = (ns: string | undefined): number => Number(BigInt(ns ?? '0') / 1000n) / 1000;
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: isolatedGitEnv(workspace.home) }).trim();
  const gitDir = path.resolve(repo, git('rev-parse', '--git-dir'));
  const commits = new Map(
    git('log', '--format=%H %ct %s')
      .split('\n')
      .map((line) => line.split(' '))
      .map(([oid, ct, ...subject]) => [subject.join(' '), { oid: oid ?? '', committerSecond: Number(ct) }] as const),
  );
  return prompts.map((prompt, i) => {
    const index = i + 1;
    const start = event('start', index);
    const exit = event('exit', index);
    const commitEvent = event('commit', index);
    const commit = commits.get(`loop iteration ${index}`);
    if (commit === undefined) throw new Error(`loop runner: no commit "loop iteration ${index}"`);
    const objectFile = path.join(gitDir, 'objects', commit.oid.slice(0, 2), commit.oid.slice(2));
    return {
      index,
      prompt,
      cliStartedAtMs: nsToMs(start[2]),
      cliExitCode: Number(exit[2]),
      cliExitedAtMs: nsToMs(exit[3]),
      commitExitCode: Number(commitEvent[2]),
      committedAtMs: nsToMs(commitEvent[3]),
      commit: { ...commit, objectMtimeMs: statSync(objectFile).mtimeMs },
      stdout: readFileSync(path.join(logs, `loop-${index}.stdout`), 'utf8'),
      stderr: readFileSync(path.join(logs, `loop-${index}.stderr`), 'utf8'),
    };
  });
}
