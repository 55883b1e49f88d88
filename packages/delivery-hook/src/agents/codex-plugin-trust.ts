import type { DoctorFinding } from '@agent-checkpoint/setup-kit';
import { codexPluginTrustKey } from '../install/codex-trust-entries.ts';
import type { PluginInstall } from '../install/plugin-install-types.ts';
import { readCodexConfig } from './codex-config.ts';

/**
 * Codex runs a plugin's hooks only once trusted, like any hook: the Stop handler's trust entry in
 * `configPath`. Loaded by the Codex profile only when doctor asks.
 */
export function codexPluginTrust(active: readonly PluginInstall[], configPath: string): DoctorFinding[] {
  if (active.length === 0) return [];
  const state = ((readCodexConfig(configPath)?.['hooks'] as Record<string, unknown> | undefined)?.['state'] ?? {}) as Record<string, { trusted_hash?: unknown }>;
  return active.map((plugin) =>
    typeof state[codexPluginTrustKey(plugin.id, 'Stop', 0, 0)]?.trusted_hash === 'string'
      ? { id: `codex.trust.${plugin.id}`, status: 'ok', title: `Codex CLI: the Stop hook of the plugin ${plugin.id} is trusted`, detail: `a trusted_hash is recorded in ${configPath}` }
      : {
          id: `codex.trust.${plugin.id}`,
          status: 'warn',
          title: `Codex CLI: the Stop hook of the plugin ${plugin.id} is not trusted yet`,
          detail: 'Codex skips untrusted hooks; `codex exec` does so silently.',
          fix: 'start `codex` in a terminal and trust the hooks when it shows "Hooks need review" (or /hooks)',
        },
  );
}
