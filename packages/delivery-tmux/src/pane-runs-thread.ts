import { readdir, readlink, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { isCodexArgv, type CodexPane } from './find-codex-pane.ts';
import { readProcessSubtree } from './read-process-table.ts';

/**
 * Prove that the pane's Codex runs *this* thread before typing into it: one of the Codex processes
 * of the pane's foreground group (the launcher and its native binary) has this thread's rollout
 * file open (`/proc/<pid>/fd/*` links resolve to `rolloutPath`). `$TMUX_PANE` alone proves nothing:
 * notify may run in a shared daemon that inherited another TUI's pane.
 *
 * Fails closed: without `/proc` (macOS), with a rollout written by a daemon rather than by the TUI,
 * or when the fds cannot be read, the answer is a reason not to type.
 */
export async function paneRunsThread(
  pane: CodexPane,
  rolloutPath: string,
  options: { readonly procRoot?: string } = {},
): Promise<{ ok: true; pid: number } | { ok: false; reason: string }> {
  const procRoot = options.procRoot ?? '/proc';
  let target: string;
  try {
    target = await realpath(rolloutPath);
  } catch {
    return { ok: false, reason: `the rollout ${rolloutPath} cannot be resolved` };
  }
  const tree = await readProcessSubtree(pane.codex.pid, { procRoot });
  const codex = [...(tree?.values() ?? [])].filter((p) => p.pgrp === pane.codex.pid && isCodexArgv(p.argv)).slice(0, 8);
  if (codex.length === 0) return { ok: false, reason: `pane ${pane.paneId}: its Codex process ${pane.codex.pid} is gone` };
  let readable = false;
  for (const process of codex) {
    const fdDir = join(procRoot, String(process.pid), 'fd');
    let fds: string[];
    try {
      fds = await readdir(fdDir);
    } catch {
      continue;
    }
    readable = true;
    for (const fd of fds.slice(0, 4096)) {
      try {
        if ((await readlink(join(fdDir, fd))) === target) return { ok: true, pid: process.pid };
      } catch {
        // Closed meanwhile.
      }
    }
  }
  return {
    ok: false,
    reason: readable
      ? `pane ${pane.paneId}: its Codex does not have this thread's rollout open (another session, or a daemon writes it)`
      : `pane ${pane.paneId}: cannot read the open files of its Codex process (no /proc?)`,
  };
}
