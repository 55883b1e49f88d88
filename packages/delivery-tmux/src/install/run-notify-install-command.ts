import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveStateDir } from '@agent-checkpoint/core';
import { commitInstall, commitUninstall, EXIT_FAILURE, EXIT_OK, isNoop, planUninstall, readInstallRecord, readOptionalFile, renderDiff, type TerminalStyle } from '@agent-checkpoint/setup-kit';
import { installNotify, isOurProgram, notifyHead, notifyHeadKey, readOurNotify, renderArray, uninstallNotify } from './edit-codex-notify.ts';

/** File name of the bundled notify program. */
export const TMUX_BUNDLE_NAME = 'agent-checkpoint-tmux.mjs';

type Env = Readonly<Record<string, string | undefined>>;

export interface NotifyInstallContext {
  readonly env: Env;
  readonly cwd: string;
  readonly write: (text: string) => Promise<void>;
  readonly writeError: (text: string) => void;
  readonly style: TerminalStyle;
  /** `[node, bundle]` to register (default: this process's node and bundle). */
  readonly program?: readonly string[];
}

/** What `install --help` and `uninstall --help` add after the options commander lists (setup/tmux-cli.ts declares them). */
export const NOTIFY_INSTALL_HELP = `
Sets Codex's notify program to agent-checkpoint-tmux in $CODEX_HOME/config.toml (~/.codex/config.toml):
  notify = ["<node>", "<abs path>/agent-checkpoint-tmux.mjs"]
A notify program you already have keeps running on every turn: it is chained after "--"
  notify = ["<node>", "<abs path>/agent-checkpoint-tmux.mjs", "--", "notify-send", "Codex"]
and uninstall puts it back. Only the notify line changes (comments and everything else are kept,
byte for byte); the result is checked with a TOML parser before it is written, atomically, and the
previous file is kept under <state dir>/installs/backups/. uninstall restores the original file
byte for byte when nothing else changed it since install.

Exit status: 0 done (or nothing to do), 1 the file could not be changed, 2 usage error.`;

/** `$CODEX_HOME/config.toml`, else `~/.codex/config.toml`. */
export function codexConfigPath(env: Env, cwd: string): string {
  const codexHome = env['CODEX_HOME'];
  if (codexHome !== undefined && codexHome !== '') return join(isAbsolute(codexHome) ? codexHome : resolve(cwd, codexHome), 'config.toml');
  return join(env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : homedir(), '.codex', 'config.toml');
}

/** `[node, bundle]`: this Node and the running bundle (or the package's built bundle from source). */
export function defaultNotifyProgram(): string[] {
  const self = fileURLToPath(import.meta.url);
  const bundle = basename(self) === TMUX_BUNDLE_NAME ? self : resolve(dirname(self), '..', '..', 'dist', TMUX_BUNDLE_NAME);
  return [realOrSame(process.execPath), realOrSame(bundle)];
}

/** The options of `install` / `uninstall`, as commander parsed them (`--print`: install only). */
export interface NotifyInstallOptions {
  readonly dryRun?: boolean;
  readonly print?: boolean;
}

/** `agent-checkpoint-tmux install|uninstall`. */
export async function runNotifyInstallCommand(command: 'install' | 'uninstall', options: NotifyInstallOptions, context: NotifyInstallContext): Promise<number> {
  const path = codexConfigPath(context.env, context.cwd);
  const program = context.program ?? defaultNotifyProgram();
  const s = context.style;
  const dryRun = options.dryRun === true;
  const stateDir = resolveStateDir({ env: context.env });

  if (command === 'install') {
    const missing = program.find((p) => isAbsolute(p) && !existsSync(p));
    if (missing !== undefined && options.print !== true) {
      context.writeError(`agent-checkpoint-tmux: ${missing} does not exist; build it first (pnpm --filter @agent-checkpoint/delivery-tmux build)\n`);
      return EXIT_FAILURE;
    }
    const before = await readOptionalFile(path);
    // What earlier installs wrote (exact heads): only those, or our exact form, are replaced.
    const recorded = (await readInstallRecord(stateDir, path))?.commands ?? [];
    const edited = installNotify(before?.toString('utf8'), program, recorded);
    if (!edited.ok) {
      context.writeError(`agent-checkpoint-tmux: cannot edit ${path}: ${edited.error}. Nothing was changed; fix the file, or set notify by hand (install --print).\n`);
      return EXIT_FAILURE;
    }
    if (options.print === true) {
      await context.write(`# ${path}: at the top level, before the first [table]\nnotify = ${renderArray(edited.after ?? program)}\n`);
      return EXIT_OK;
    }
    const change = { path, before, after: Buffer.from(edited.text, 'utf8') };
    if (isNoop(change)) {
      await context.write(`${s.green('✓')} Codex notify: already set in ${path} (unchanged)\n    notify = ${renderArray(edited.after ?? [])}\n`);
      return EXIT_OK;
    }
    if (dryRun) {
      await context.write(`${s.bold('Codex notify')}: would ${before === undefined ? 'create' : 'change'} ${path}\n${renderDiff(path, before?.toString('utf8'), edited.text, s)}\n`);
      return EXIT_OK;
    }
    const hadOurs = edited.before !== undefined && readOurNotify(edited.before, recorded) !== undefined;
    const result = await commitInstall({
      stateDir,
      change,
      hadOurEntries: hadOurs,
      by: 'agent-checkpoint-tmux install',
      ...(edited.after === undefined ? {} : { commands: [notifyHeadKey(notifyHead(edited.after))] }),
    });
    await context.write(`${s.green('✓')} Codex notify: ${before === undefined ? 'created' : 'set in'} ${path}\n    notify = ${renderArray(edited.after ?? [])}\n`);
    if (edited.chain.length > 0) await context.write(`    your previous notify program (${edited.chain.join(' ')}) still runs on every turn, chained after "--"; uninstall restores it\n`);
    if (!hadOurs && edited.chain.some(isOurProgram)) {
      await context.write(s.dim('    (it mentions agent-checkpoint-tmux: left as your own wrapper; if it runs it too, each turn runs it twice — still one checkpoint per turn)\n'));
    }
    if (result.backup !== undefined) await context.write(s.dim(`    previous version kept at ${result.backup}\n`));
    await context.write(
      '    Run Codex inside tmux: when a turn ends, the checkpoint is typed into its pane. Codex reads config.toml at start: restart running sessions.\n' +
        `    Check the set-up with ${s.bold('agent-checkpoint-tmux doctor')}. With the Stop hook installed too, both routes share one checkpoint per turn.\n`,
    );
    return EXIT_OK;
  }

  const record = await readInstallRecord(stateDir, path);
  const recorded = record?.commands ?? [];
  const original = record?.original === undefined ? undefined : Buffer.from(record.original, 'base64').toString('utf8');
  let failure: string | undefined;
  let ours = false;
  const plan = await planUninstall({
    stateDir,
    path,
    surgical: (current) => {
      const edited = uninstallNotify(current.toString('utf8'), original, recorded);
      if (!edited.ok) {
        failure = edited.error;
        return { bytes: current, empty: false };
      }
      ours = edited.before !== edited.after;
      return { bytes: Buffer.from(edited.text, 'utf8'), empty: edited.text.trim() === '' };
    },
  });
  if (failure !== undefined) {
    context.writeError(`agent-checkpoint-tmux: cannot edit ${path}: ${failure}. Nothing was changed; remove agent-checkpoint-tmux from notify by hand.\n`);
    return EXIT_FAILURE;
  }
  const { change } = plan;
  if (change.before === undefined || (!plan.restoresOriginal && !ours)) {
    await context.write(`${s.dim('·')} Codex notify: agent-checkpoint-tmux is not set in ${path}; nothing to do\n`);
    return EXIT_OK;
  }
  if (dryRun) {
    await context.write(`${s.bold('Codex notify')}: would ${change.after === undefined ? 'delete' : 'change'} ${path}\n${renderDiff(path, change.before.toString('utf8'), change.after?.toString('utf8'), s)}\n`);
    return EXIT_OK;
  }
  const result = await commitUninstall({ stateDir, plan });
  const what = result.deleted
    ? `deleted ${path} (install had created it)`
    : plan.restoresOriginal
      ? `restored ${path} to its state before install, byte for byte`
      : `took agent-checkpoint-tmux out of notify in ${path} (the file changed since install, so only notify was edited)`;
  await context.write(`${s.green('✓')} Codex notify: ${what}\n`);
  if (result.backup !== undefined) await context.write(s.dim(`    previous version kept at ${result.backup}\n`));
  return EXIT_OK;
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
