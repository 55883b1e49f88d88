import { execFile } from 'node:child_process';
import { forTerminal } from '@agent-checkpoint/core/hot-path';
import type { TerminalStyle } from './terminal-style.ts';
import { findExecutable } from './find-executable.ts';

/**
 * One thing `doctor` checked. `fix` is the command or step that resolves a `warn` or `fail`, written
 * so it can be copied as is.
 */
export interface DoctorFinding {
  /** Stable id, e.g. `node`, `claude.cli`, `claude.hook.user`, `config`. */
  readonly id: string;
  /**
   * - `ok`: works;
   * - `info`: worth knowing, nothing to do (an agent that is not installed, no session yet);
   * - `warn`: works only partly or may stop working; the checkpoint may not fire;
   * - `fail`: the checkpoint cannot work like this.
   */
  readonly status: 'ok' | 'info' | 'warn' | 'fail';
  readonly title: string;
  readonly detail?: string;
  readonly fix?: string;
}

/** The `--json` form of a doctor run. Stable field names. */
export interface DoctorReport {
  readonly version: 1;
  readonly tool: 'agent-checkpoint-hook' | 'agent-checkpoint-tmux';
  readonly findings: readonly DoctorFinding[];
  readonly summary: { readonly ok: number; readonly info: number; readonly warn: number; readonly fail: number };
}

export function doctorReport(tool: DoctorReport['tool'], findings: readonly DoctorFinding[]): DoctorReport {
  const count = (status: DoctorFinding['status']): number => findings.filter((f) => f.status === status).length;
  return { version: 1, tool, findings, summary: { ok: count('ok'), info: count('info'), warn: count('warn'), fail: count('fail') } };
}

/** Exit status of doctor: 1 when anything failed, else 0 (warnings included). */
export function doctorExitCode(report: DoctorReport): number {
  return report.summary.fail > 0 ? 1 : 0;
}

/** Human output: one line per finding, its detail, and its fix. */
export function renderDoctorReport(report: DoctorReport, style: TerminalStyle): string {
  const s = style;
  const mark = { ok: s.green('✓'), info: s.dim('·'), warn: s.yellow('!'), fail: s.red('✗') };
  const lines = [s.bold(`${report.tool} doctor`), ''];
  // Findings quote paths, file names, config diagnostics and CLI output: the terminal boundary's
  // sanitizer escapes their control characters (a directory name must not clear the screen).
  const line = (text: string): string => forTerminal(text, { keepLines: false });
  for (const finding of report.findings) {
    lines.push(`${mark[finding.status]} ${line(finding.title)}`);
    if (finding.detail !== undefined) for (const detail of finding.detail.split('\n')) lines.push(`    ${s.dim(line(detail))}`);
    if (finding.fix !== undefined && finding.status !== 'ok') lines.push(`    ${s.bold('fix:')} ${line(finding.fix)}`);
  }
  const { ok, info, warn, fail } = report.summary;
  lines.push('', `${ok} ok, ${warn} warning${warn === 1 ? '' : 's'}, ${fail} failure${fail === 1 ? '' : 's'}${info > 0 ? `, ${info} note${info === 1 ? '' : 's'}` : ''}.`, '');
  return lines.join('\n');
}

/** The Node.js version check both doctors start with. */
export function nodeFinding(version = process.version, execPath = process.execPath): DoctorFinding {
  const major = Number(/^v(\d+)/.exec(version)?.[1] ?? 0);
  return major >= 18
    ? { id: 'node', status: 'ok', title: `Node.js ${version} (${execPath})` }
    : { id: 'node', status: 'fail', title: `Node.js ${version} is too old`, detail: 'agent-checkpoint needs Node.js 18 or later.', fix: 'install Node.js 18+ and re-run install, so hooks use the new node' };
}

/** What `<cli> --version` said, or why it could not be asked. */
export type CliVersion = { readonly found: false } | { readonly found: true; readonly path: string; readonly version?: string; readonly error?: string };

/**
 * `<name> --version` with a time limit (`AGENT_CHECKPOINT_DOCTOR_TIMEOUT_MS`, default 10 s): a CLI
 * that is missing, hangs or fails is reported, never fatal.
 */
export function cliVersion(name: string, env: Readonly<Record<string, string | undefined>>): Promise<CliVersion> {
  const path = findExecutable(name, env);
  if (path === undefined) return Promise.resolve({ found: false });
  const timeout = Number(env['AGENT_CHECKPOINT_DOCTOR_TIMEOUT_MS'] ?? '') || 10_000;
  return new Promise((resolve) => {
    execFile(path, ['--version'], { timeout, killSignal: 'SIGKILL', env: { ...env }, maxBuffer: 64 * 1024 }, (error, stdout, stderr) => {
      const text = `${stdout}`.trim() || `${stderr}`.trim();
      const version = /\d+\.\d+\.\d+[\w.-]*/.exec(text)?.[0];
      if (error !== null) {
        const why = (error as NodeJS.ErrnoException & { killed?: boolean }).killed === true ? `no answer within ${timeout} ms` : error.message.split('\n')[0] ?? 'failed';
        resolve({ found: true, path, ...(version === undefined ? {} : { version }), error: why });
        return;
      }
      resolve({ found: true, path, ...(version === undefined ? {} : { version }) });
    });
  });
}
