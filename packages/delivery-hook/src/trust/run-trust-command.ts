import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  configDigest,
  findProjectRoot,
  forTerminal,
  inspectConfigFile,
  jsonForTerminal,
  PROJECT_CONFIG_FILE,
  readConfigBytes,
  readTrustStore,
  recordTrust,
  resolveStateDir,
  revokeTrust,
  trustKeyFor,
  trustStateOf,
  trustStorePath,
} from '@agent-checkpoint/core';
import { EXIT_FAILURE, EXIT_OK } from '@agent-checkpoint/setup-kit';
import { contextCheckpointSections } from '@agent-checkpoint/context-checkpoint/load';

export interface TrustCommandContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly write: (text: string) => Promise<void>;
  readonly writeError: (text: string) => void;
}

/** The options of `trust`, as commander parses them (commands/hook-cli.ts declares them). */
export interface TrustOptions {
  readonly revoke?: boolean;
  readonly list?: boolean;
  readonly json?: boolean;
}

/** `agent-checkpoint-hook trust`. */
export async function runTrustCommand(given: string | undefined, values: TrustOptions, context: TrustCommandContext): Promise<number> {
  const stateDir = resolveStateDir({ env: context.env });
  if (values.list === true) return list(stateDir, context, values.json === true);
  const path = targetPath(resolve(context.cwd, given ?? '.'));
  return values.revoke === true ? revoke(stateDir, path, context) : trust(stateDir, path, context);
}

/** A directory stands for its repository's project file. */
function targetPath(path: string): string {
  const info = statSync(path, { throwIfNoEntry: false });
  return info?.isDirectory() === true ? join(findProjectRoot(path), PROJECT_CONFIG_FILE) : path;
}

async function trust(stateDir: string, path: string, context: TrustCommandContext): Promise<number> {
  const file = await inspectConfigFile(path, { sections: contextCheckpointSections });
  switch (file.kind) {
    case 'missing':
      context.writeError(`agent-checkpoint: ${terminal(path)}: no such file; nothing to trust\n`);
      return EXIT_FAILURE;
    case 'unusable':
      context.writeError(`agent-checkpoint: ${terminal(`${path}: ${file.problem}`)}; not trusted\n`);
      return EXIT_FAILURE;
    case 'read':
      break;
  }
  if (file.realPath === undefined) {
    context.writeError(`agent-checkpoint: ${terminal(path)} changed while it was read; not trusted (run the command again)\n`);
    return EXIT_FAILURE;
  }
  if (!file.parsed.ok) {
    context.writeError(
      `agent-checkpoint: ${terminal(path)} is not a valid configuration (it is ignored as a whole); fix it, then trust it:\n${file.parsed.problems.map((p) => `  ${terminal(p)}\n`).join('')}`,
    );
    return EXIT_FAILURE;
  }
  const key = trustKeyFor(path);
  try {
    await recordTrust(stateDir, key, file.sha256);
  } catch (error) {
    context.writeError(`agent-checkpoint: cannot record trust in ${trustStorePath(stateDir)}: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_FAILURE;
  }
  const lines = [`Trusted ${key}${file.realPath === key ? '' : ` (a link to ${file.realPath}: trusted here only)`}, sha256 ${file.sha256.slice(0, 12)}…`];
  if (file.parsed.privileged.length === 0) lines.push('It sets no command or write path; any edit needs trusting again.');
  else {
    lines.push('From now on, until the file changes, these apply:');
    // What the user is trusting: JSON escapes C0 only, so C1 (a one-byte CSI) and bidi overrides,
    // which could hide part of a command on screen, are escaped too.
    for (const setting of file.parsed.privileged) lines.push(`  ${setting.key} = ${jsonForTerminal(JSON.stringify(setting.value))}  (${setting.why})`);
  }
  await context.write(`${lines.map(terminal).join('\n')}\n`);
  return EXIT_OK;
}

async function revoke(stateDir: string, path: string, context: TrustCommandContext): Promise<number> {
  // A deleted file is still revoked by the location it was trusted under.
  const key = trustKeyFor(path);
  let removed: boolean;
  try {
    removed = await revokeTrust(stateDir, key);
  } catch (error) {
    context.writeError(`agent-checkpoint: cannot update ${trustStorePath(stateDir)}: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_FAILURE;
  }
  await context.write(removed ? `No longer trusted: ${terminal(key)}\n` : `${terminal(key)} was not trusted; nothing to revoke.\n`);
  return EXIT_OK;
}

async function list(stateDir: string, context: TrustCommandContext, json: boolean): Promise<number> {
  const store = readTrustStore(stateDir);
  for (const note of store.diagnostics) context.writeError(`agent-checkpoint: ${terminal(note)}\n`);
  const entries = Object.entries(store.files);
  if (json) {
    const files = entries.map(([path, entry]) => ({ path, state: trustListState(store, path), trustedAt: entry.trustedAt }));
    await context.write(`${jsonForTerminal(JSON.stringify({ store: trustStorePath(stateDir), files }, null, 2))}\n`);
    return store.diagnostics.length > 0 ? EXIT_FAILURE : EXIT_OK;
  }
  if (entries.length === 0) {
    await context.write(`No trusted project files (${trustStorePath(stateDir)}).\n`);
    return store.diagnostics.length > 0 ? EXIT_FAILURE : EXIT_OK;
  }
  const words = { trusted: 'trusted', changed: 'changed since: not applied until trusted again', missing: 'missing', unreadable: 'unreadable' } as const;
  const lines = entries.map(([path, entry]) => {
    const state = trustListState(store, path);
    const read = readConfigBytes(path);
    return terminal(`${path}  ${words[state]}${read.kind === 'unusable' ? ` (${read.problem})` : ''}  (trusted ${entry.trustedAt})`);
  });
  await context.write(`${lines.join('\n')}\n`);
  return EXIT_OK;
}

/** Whether a trusted file still applies: `trusted`, `changed` since, `missing`, or `unreadable`. */
function trustListState(store: ReturnType<typeof readTrustStore>, path: string): 'trusted' | 'changed' | 'missing' | 'unreadable' {
  const read = readConfigBytes(path);
  if (read.kind === 'missing') return 'missing';
  if (read.kind === 'unusable') return 'unreadable';
  return trustStateOf(store, path, configDigest(read.bytes)) === 'trusted' && read.realPath !== undefined ? 'trusted' : 'changed';
}


/** One line of output: paths and values come from the repository (a directory name may hold ESC). */
function terminal(text: string): string {
  return forTerminal(text, { keepLines: false });
}
