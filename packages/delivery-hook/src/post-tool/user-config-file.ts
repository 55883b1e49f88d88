import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * The user configuration file, exactly as core's `userConfigPath` finds it (`AGENT_CHECKPOINT_CONFIG`,
 * else `$XDG_CONFIG_HOME/agent-checkpoint/config.json`, else `~/.config/…`): repeated here because
 * core's index is too heavy for the monitor's gate. `user-config-file.test.ts` keeps the two equal.
 */
export function userConfigFile(env: Readonly<Record<string, string | undefined>>): string {
  const explicit = env['AGENT_CHECKPOINT_CONFIG'];
  if (explicit !== undefined && explicit !== '') return resolve(explicit);
  const xdg = env['XDG_CONFIG_HOME'];
  const home = env['HOME'] !== undefined && env['HOME'] !== '' && isAbsolute(env['HOME']) ? env['HOME'] : homedir();
  const base = xdg !== undefined && xdg !== '' && isAbsolute(xdg) ? xdg : join(home, '.config');
  return join(base, 'agent-checkpoint', 'config.json');
}
