import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { projectFiles } from '../checkpoint/checkpoint-project.ts';
import type { Scenario } from '../mock/scenario.ts';
import type { AgentSession, SessionOptions } from './agent-session.ts';

/** What {@link runOurBin} saw of one run. */
export interface OurBinRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * A session for a test that installs agent-checkpoint as a user does (our `install`, a plugin, an
 * extension): the checkpoint project, no hook of the harness (the only hooks are the ones the test
 * installs), and our state directory and the user's configuration and cache inside the session's
 * workspace, so nothing reaches the runner's own. `debug`: every run of our bin logs one line to
 * `<workspace>/state/debug.log` (which hooks ran, for which agent).
 */
export function ownInstallSession(scenario: Scenario, options: { readonly debug?: boolean } = {}): SessionOptions {
  return {
    scenario,
    files: projectFiles(),
    hook: { kind: 'none' },
    env: (workspace) => ({
      AGENT_CHECKPOINT_STATE_DIR: path.join(workspace.root, 'state'),
      XDG_CONFIG_HOME: path.join(workspace.home, '.config'),
      XDG_CACHE_HOME: path.join(workspace.home, '.cache'),
      ...(options.debug === true ? { AGENT_CHECKPOINT_DEBUG: '1' } : {}),
    }),
  };
}

/** Runs one of our bundled bins (`HOOK_BUNDLE`, `TMUX_BUNDLE`) as the user would, in the session's environment and repository. */
export function runOurBin(bundle: string, args: readonly string[], session: AgentSession): OurBinRun {
  const result = spawnSync(process.execPath, [bundle, ...args], { env: session.env(), cwd: session.workspace.repo, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
