import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temp HOME + state dir for one test, and the environment that points the hook at them. */
export interface HookSandbox {
  readonly root: string;
  readonly home: string;
  readonly stateDir: string;
  /** A hermetic environment: PATH, isolated HOME/XDG dirs, state dir, hermetic git config. */
  readonly env: Record<string, string>;
  remove(): void;
}

export function createHookSandbox(prefix = 'ac-hook-'): HookSandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const home = join(root, 'home');
  const stateDir = join(root, 'state');
  mkdirSync(home);
  return {
    root,
    home,
    stateDir,
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_STATE_HOME: join(home, '.local', 'state'),
      AGENT_CHECKPOINT_STATE_DIR: stateDir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: join(home, '.gitconfig-empty'),
      GIT_CEILING_DIRECTORIES: root,
      LANG: 'C.UTF-8',
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
