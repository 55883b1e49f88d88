import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import { DISABLE_ENV, isTruthyEnv, readOffSwitch, resolveStateDir } from '@agent-checkpoint/core';
import { cliVersion, doctorExitCode, type DoctorFinding, doctorReport, isExecutableFile, nodeFinding, readSettingsFile, renderDoctorReport, type TerminalStyle } from '@agent-checkpoint/setup-kit';
import { chooseTransport } from '../choose-transport.ts';
import { isCodexArgv, parseTmuxEnv } from '../find-codex-pane.ts';
import { parseNotifyArgv } from '../parse-notify-argv.ts';
import { lastQueueProblem, NOTIFY_LOG } from '../queue-outcome-log.ts';
import { DEFAULT_QUEUE_CONFIRM_MS } from '../run-notify.ts';
import { readProcessSubtree } from '../read-process-table.ts';
import { runTmux } from '../run-tmux.ts';
import { readNotify, readOurNotify } from '../install/edit-codex-notify.ts';
import { codexConfigPath, defaultNotifyProgram } from '../install/run-notify-install-command.ts';

type Env = Readonly<Record<string, string | undefined>>;

export interface NotifyDoctorContext {
  readonly env: Env;
  readonly cwd: string;
  readonly write: (text: string) => Promise<void>;
  readonly writeError: (text: string) => void;
  readonly style: TerminalStyle;
  readonly program?: readonly string[];
}

/** What `doctor --help` adds after the options commander lists (setup/tmux-cli.ts declares them). */
export const NOTIFY_DOCTOR_HELP = `
Checks the tmux route, with a fix for each problem: Node.js (>= 20), tmux (>= 3.2), the Codex CLI
version, whether Codex's notify (in $CODEX_HOME/config.toml) runs this program and whether the node
and bundle it names exist, what it chains, whether a Codex process runs in a tmux pane right now,
and the off switches.

Exit status: 0 no failure (warnings allowed), 1 at least one failure, 2 usage error.`;

/** The options of `doctor`, as commander parsed them. */
export interface NotifyDoctorOptions {
  /** The tmux server to look at (default: the one in $TMUX, else the default server). */
  readonly tmuxSocket?: string;
  readonly json?: boolean;
}

/** `agent-checkpoint-tmux doctor`. */
export async function runNotifyDoctorCommand(options: NotifyDoctorOptions, context: NotifyDoctorContext): Promise<number> {
  const env = context.env;
  const program = context.program ?? defaultNotifyProgram();
  const findings: DoctorFinding[] = [nodeFinding()];
  const bundle = program.find((p) => basename(p).startsWith('agent-checkpoint-tmux'));
  if (bundle !== undefined && !existsSync(bundle)) {
    findings.push({ id: 'bundle', status: 'fail', title: `notify bundle ${bundle} is missing`, fix: 'pnpm --filter @agent-checkpoint/delivery-tmux build (or reinstall the package)' });
  }
  findings.push(await tmuxFinding(env));
  const codex = await cliVersion('codex', env);
  findings.push(
    !codex.found
      ? { id: 'codex.cli', status: 'warn', title: 'Codex CLI: `codex` is not on PATH', fix: 'npm install -g @openai/codex' }
      : codex.error !== undefined
        ? { id: 'codex.cli', status: 'warn', title: 'Codex CLI: `codex --version` failed', detail: `${codex.path}: ${codex.error}` }
        : { id: 'codex.cli', status: 'ok', title: `Codex CLI ${codex.version ?? '(version unknown)'}`, detail: codex.path },
  );
  findings.push(...notifyFindings(env, context.cwd, program));
  findings.push(await transportFinding(env, context.cwd));
  findings.push(await codexPaneFinding(env, options.tmuxSocket));
  findings.push(...(await switchFindings(env)));
  const queued = queueProblemFinding(env);
  if (queued !== undefined) findings.push(queued);

  const report = doctorReport('agent-checkpoint-tmux', findings);
  await context.write(options.json === true ? `${JSON.stringify(report, null, 2)}\n` : renderDoctorReport(report, context.style));
  return doctorExitCode(report);
}

/**
 * Which transport a notify run would use, and why: `codex queue` when the installed Codex has it,
 * else verified tmux typing. Reads the options of the installed notify (`--transport`,
 * `--codex-bin`, `--queue-confirm-ms`). Doctor runs in the user's shell; Codex runs notify with its
 * own environment (`PATH` may differ), which the detail says.
 */
async function transportFinding(env: Env, cwd: string): Promise<DoctorFinding> {
  let notifyOptions: readonly string[] = [];
  const path = codexConfigPath(env, cwd);
  // The same guarded read as the notify finding: a FIFO or device config.toml is never waited on.
  const file = readSettingsFile(path);
  if (file.kind !== 'absent' && file.kind !== 'refused') {
    const read = readNotify(file.bytes.toString('utf8'));
    const ours = read.ok && read.before !== undefined ? readOurNotify(read.before) : undefined;
    notifyOptions = ours?.options ?? [];
  }
  const { options } = parseNotifyArgv([...notifyOptions, '{}']);
  let stateDir: string | undefined;
  try {
    stateDir = resolveStateDir({ env });
  } catch {
    stateDir = undefined;
  }
  const transport = await chooseTransport({
    env,
    ...(stateDir !== undefined ? { stateDir } : {}),
    ...(options.transport !== undefined ? { choice: options.transport } : {}),
    ...(options.codexBin !== undefined ? { codexBin: options.codexBin } : {}),
  });
  const seconds = Math.round((options.queueConfirmMs ?? DEFAULT_QUEUE_CONFIRM_MS) / 1000);
  const envNote = 'Checked with this shell\'s PATH; Codex runs notify with its own environment.';
  switch (transport.kind) {
    case 'queue':
      return {
        id: 'transport',
        status: 'ok',
        title: 'transport: `codex queue` (the checkpoint goes to its own session by thread id)',
        detail: `${transport.why}\nA detached confirmer looks for the queued turn in the rollout and withdraws an item not delivered within ${seconds} s. Only interactive TUI sessions (client codex-tui) get checkpoints this way; \`codex exec\` needs the Stop hook.\n${envNote}`,
      };
    case 'tmux':
      return options.transport === 'tmux'
        ? { id: 'transport', status: 'info', title: 'transport: tmux typing (--transport=tmux)', detail: 'Typed only into the pane whose Codex has the thread\'s rollout open.' }
        : {
            id: 'transport',
            status: 'warn',
            title: 'transport: tmux typing (fallback: this Codex has no `codex queue`)',
            detail: `${transport.why}\nTyped only into a pane proven to run the thread (its Codex has the rollout open); with Codex's shared daemon nothing is typed. ${envNote}`,
            fix: 'upgrade Codex (npm install -g @openai/codex) to get `codex queue`, or use the Stop hook route (agent-checkpoint-hook install --agent codex)',
          };
    case 'none':
      return { id: 'transport', status: 'fail', title: 'transport: none (--transport=queue, but `codex queue` is not available)', detail: transport.why, fix: 'upgrade Codex, or drop --transport=queue from notify' };
    default:
      return assertNever(transport);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected ${JSON.stringify(value)}`);
}

function tmuxFinding(env: Env): Promise<DoctorFinding> {
  return new Promise((resolve) => {
    execFile('tmux', ['-V'], { env: { ...env }, timeout: 5000 }, (error, stdout) => {
      if (error !== null) {
        resolve({ id: 'tmux', status: 'fail', title: 'tmux is not installed (or not on PATH)', detail: 'The tmux route types into a tmux pane.', fix: 'install tmux 3.2 or later, or use the Stop hook route (agent-checkpoint-hook install --agent codex)' });
        return;
      }
      const text = stdout.trim();
      const [major = 0, minor = 0] = (/(\d+)\.(\d+)/.exec(text) ?? []).slice(1).map(Number);
      resolve(
        major > 3 || (major === 3 && minor >= 2)
          ? { id: 'tmux', status: 'ok', title: text }
          : { id: 'tmux', status: 'warn', title: `${text} is older than 3.2`, detail: 'Bracketed paste and the pane checks are tested with tmux 3.2 and later.', fix: 'upgrade tmux' },
      );
    });
  });
}

function notifyFindings(env: Env, cwd: string, program: readonly string[]): DoctorFinding[] {
  const path = codexConfigPath(env, cwd);
  const file = readSettingsFile(path);
  if (file.kind === 'absent') return [{ id: 'notify', status: 'warn', title: `Codex notify: ${path} does not exist`, fix: 'agent-checkpoint-tmux install' }];
  if (file.kind === 'refused') return [{ id: 'notify', status: 'fail', title: `Codex notify: ${path} ${file.reason}`, detail: 'Codex cannot read its configuration either.', fix: 'replace it with a regular TOML file (or remove it)' }];
  const read = readNotify(file.bytes.toString('utf8'));
  if (!read.ok) return [{ id: 'notify', status: 'fail', title: `Codex notify: cannot read ${path}`, detail: read.error, fix: 'fix the TOML syntax' }];
  if (read.before === undefined) return [{ id: 'notify', status: 'warn', title: `Codex notify is not set in ${path}`, fix: 'agent-checkpoint-tmux install' }];
  const ours = readOurNotify(read.before);
  const shown = JSON.stringify(read.before);
  if (ours === undefined) {
    return [
      {
        id: 'notify',
        status: 'warn',
        title: 'Codex notify runs another program, not agent-checkpoint-tmux',
        detail: `notify = ${shown}`,
        fix: 'agent-checkpoint-tmux install (keeps that program, chained after "--")',
      },
    ];
  }
  const findings: DoctorFinding[] = [];
  const missing = read.before.slice(0, read.before.indexOf('--') === -1 ? undefined : read.before.indexOf('--')).find((p) => isAbsolute(p) && !existsSync(p));
  const node = read.before[0];
  if (missing !== undefined) {
    findings.push({ id: 'notify', status: 'fail', title: 'Codex notify names a file that does not exist', detail: `${missing}\nnotify = ${shown}`, fix: 'agent-checkpoint-tmux install' });
  } else if (node !== undefined && isAbsolute(node) && !isExecutableFile(node)) {
    findings.push({ id: 'notify', status: 'fail', title: `Codex notify: ${node} is not executable`, fix: 'agent-checkpoint-tmux install' });
  } else {
    const notes = [`notify = ${shown}`];
    if (!read.before.includes(program[1] ?? '')) notes.push(`points at another copy of the program than this one (${program[1] ?? '?'}); fine if intended`);
    if (ours.chain.length > 0) notes.push(`chains: ${ours.chain.join(' ')}`);
    findings.push({ id: 'notify', status: 'ok', title: `Codex notify runs agent-checkpoint-tmux (${path})`, detail: notes.join('\n') });
  }
  const hooks = join(path, '..', 'hooks.json');
  const hooksFile = readSettingsFile(hooks);
  if (hooksFile.kind === 'file' && /agent-checkpoint-hook/.test(hooksFile.bytes.toString('utf8'))) {
    findings.push({ id: 'notify.hook-route', status: 'info', title: 'the Codex Stop hook is installed too', detail: 'Both routes share the per-session loop guard: still one checkpoint per turn.' });
  }
  return findings;
}

/** The tmux server to inspect: --tmux-socket, `$TMUX`'s socket, else the default server's socket. */
function tmuxSocket(env: Env, explicit: string | undefined): string {
  if (explicit !== undefined) return explicit;
  const inside = parseTmuxEnv(env['TMUX']);
  if (inside !== undefined) return inside.socketPath;
  const base = env['TMUX_TMPDIR'] !== undefined && env['TMUX_TMPDIR'] !== '' ? env['TMUX_TMPDIR'] : '/tmp';
  return join(base, `tmux-${process.getuid?.() ?? 0}`, 'default');
}

async function codexPaneFinding(env: Env, explicit: string | undefined): Promise<DoctorFinding> {
  const socketPath = tmuxSocket(env, explicit);
  if (!existsSync(socketPath)) return { id: 'codex.pane', status: 'info', title: `no tmux server at ${socketPath}`, detail: 'Start Codex inside tmux for this route to deliver.' };
  const listed = await runTmux({ socketPath }, ['list-panes', '-a', '-F', '#{pane_id}\t#{pane_pid}\t#{session_name}:#{window_index}.#{pane_index}']);
  if (!listed.ok) return { id: 'codex.pane', status: 'info', title: `tmux server at ${socketPath} did not answer`, detail: listed.failure ?? listed.stderr.trim() };
  const found: string[] = [];
  for (const line of listed.stdout.split('\n')) {
    const [paneId, panePid, where] = line.split('\t');
    if (paneId === undefined || panePid === undefined || !/^\d+$/.test(panePid)) continue;
    const tree = await readProcessSubtree(Number(panePid));
    const codex = [...(tree?.values() ?? [])].find((p) => isCodexArgv(p.argv));
    if (codex !== undefined) found.push(`${paneId} (${where ?? '?'}): pid ${codex.pid} ${codex.argv.join(' ').slice(0, 80)}`);
  }
  return found.length > 0
    ? { id: 'codex.pane', status: 'ok', title: `Codex runs in ${found.length} tmux pane${found.length === 1 ? '' : 's'}`, detail: found.join('\n') }
    : { id: 'codex.pane', status: 'info', title: 'no Codex process runs in a tmux pane right now', detail: `tmux server ${socketPath}. Start \`codex\` inside tmux for this route to deliver.` };
}

/**
 * The last queued checkpoint that was not confirmed (withdrawn, or stale: removing it failed), from
 * the confirmer's `notify.log`; nothing when there is none. The confirmer runs detached, so this is
 * where its failures show.
 */
function queueProblemFinding(env: Env): DoctorFinding | undefined {
  let stateDir: string;
  try {
    stateDir = resolveStateDir({ env });
  } catch {
    return undefined;
  }
  const last = lastQueueProblem(stateDir);
  if (last === undefined) return undefined;
  return {
    id: 'transport.queue-outcome',
    status: 'warn',
    title: `last queued checkpoint not confirmed: ${last.status} (${last.at})`,
    detail: `${last.reason ?? ''}\nthread ${last.threadId}, turn ${last.turnId}, queued item ${last.queuedSubmissionId}\nLog: ${join(stateDir, NOTIFY_LOG)}`,
  };
}

async function switchFindings(env: Env): Promise<DoctorFinding[]> {
  const findings: DoctorFinding[] = [];
  if (isTruthyEnv(env[DISABLE_ENV])) findings.push({ id: 'switch.env', status: 'warn', title: `${DISABLE_ENV} is set in this environment: checkpoints are off`, fix: `unset ${DISABLE_ENV}` });
  try {
    const all = await readOffSwitch({ stateDir: resolveStateDir({ env }), env: {} });
    if (all.off) findings.push({ id: 'switch.all', status: 'warn', title: 'checkpoints are switched off for all sessions', detail: all.detail, fix: 'agent-checkpoint-hook on --all' });
  } catch {
    // No home directory: nothing switched off that we could read.
  }
  return findings;
}
