import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import type { TurnEndNotice } from './agent-profile.ts';

/**
 * The one install whose source can vanish while a hook of ours still runs: a Codex plugin added from
 * a local marketplace folder. Codex runs its cached copy
 * (`$CODEX_HOME/plugins/cache/<marketplace>/agent-checkpoint/<version>/dist/…`), so checkpoints go on,
 * but the marketplace (`[marketplaces.<marketplace>] source_type = "local"`) no longer loads and the
 * plugin can no longer be updated. This notice says so once per session (the caller claims it).
 *
 * Cheap on the turn-end path: nothing is read unless the running bin sits in a Codex plugin cache.
 */
export async function codexInstallSourceNotice(bin: string, doctor: string): Promise<TurnEndNotice | undefined> {
  const parts = bin.split(sep);
  const at = parts.lastIndexOf('cache');
  // …/<codex home>/plugins/cache/<marketplace>/agent-checkpoint/<version>/dist/<bin>
  if (at < 2 || parts[at - 1] !== 'plugins' || parts[at + 2] !== 'agent-checkpoint' || parts.length !== at + 6 || parts[at + 4] !== 'dist') return undefined;
  const marketplace = parts[at + 1]!;
  const codexHome = dirname(parts.slice(0, at).join(sep));
  let config: Record<string, unknown>;
  try {
    const { parse } = await import('smol-toml');
    config = parse(await readFile(join(codexHome, 'config.toml'), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const known = (config['marketplaces'] as Record<string, Record<string, unknown> | undefined> | undefined)?.[marketplace];
  const source = known?.['source'];
  if (known?.['source_type'] !== 'local' || typeof source !== 'string' || existsSync(source)) return undefined;
  return {
    kind: 'install-source-missing',
    text: `agent-checkpoint: the Codex marketplace ${marketplace} was added from ${source}, which is gone (moved or deleted): checkpoints still run from Codex's cached copy, but the plugin cannot be updated. Re-add it from the repository URL: codex plugin marketplace remove ${marketplace} && codex plugin marketplace add <git-url> (${doctor} shows the details).`,
  };
}
