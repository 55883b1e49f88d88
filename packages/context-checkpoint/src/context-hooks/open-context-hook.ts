import { findProjectRoot, loadConfig, readOffSwitch, type ResolvedConfig } from '@agent-checkpoint/core';
import { contextCheckpointConfigOf, type ContextCheckpointConfig } from '../config/context-config.ts';
import { contextCheckpointSections } from '../load-turn-end-extensions.ts';

/**
 * What a context hook needs switched on, besides `enabled` and the off switches:
 * - `handoff`: `handoff.enabled` (SessionStart resume, PreCompact handoff);
 * - `context`: `context.enabled` (UserPromptSubmit estimate, the monitor's L2/L3 action);
 * - `status`: nothing more (the status line is its own opt-in); its configuration is returned even
 *   when the hook is off, because the status line still shows the context level then.
 */
export type ContextHookNeed = 'handoff' | 'context' | 'status';

/** What the route knows before the early check. */
export interface ContextHookFacts {
  /** The session's working directory (the route chose it: payload `cwd`, else its own). */
  readonly cwd: string;
  readonly stateDir: string;
  /** The session's state key; undefined reads only the global and project switches. */
  readonly sessionId: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly need: ContextHookNeed;
}

/** The configuration a context hook runs with, loaded once by {@link openContextHook}. */
export interface ContextHookSettings {
  /** `findProjectRoot(cwd)`: the per-project off switch, the project file, the handoff directory. */
  readonly projectRoot: string;
  /** Loaded with this package's sections. */
  readonly config: ResolvedConfig;
  readonly context: ContextCheckpointConfig;
}

/** Why a context hook does nothing. */
export type ContextHookOffReason = 'switched-off' | 'disabled' | 'handoffs-disabled' | 'context-disabled';

/** Result of {@link openContextHook}: the hook runs (`open`) or passes, with the reason. */
export type ContextHookGate =
  | {
      readonly kind: 'pass';
      readonly reason: ContextHookOffReason;
      readonly detail: string;
      /** Present when the configuration was loaded (always, except a `switched-off` hook that is not `status`). */
      readonly settings?: ContextHookSettings;
      readonly diagnostics: readonly string[];
    }
  | { readonly kind: 'open'; readonly settings: ContextHookSettings; readonly diagnostics: readonly string[] };

/**
 * The early check of every context hook (SessionStart, PreCompact, UserPromptSubmit, the status line
 * and the monitor's acting part), as `checkTurnEndEarly` is the turn end's: the off switches read
 * with the project root (environment, global, project, session: `off --project` silences every
 * hook), the configuration loaded once with this package's sections, then the check the hook needs.
 * No context hook reads the switches or the configuration by itself (context-hooks-use-early-check
 * test). Never throws on bad files (their problems are `diagnostics`).
 */
export async function openContextHook(facts: ContextHookFacts): Promise<ContextHookGate> {
  const projectRoot = findProjectRoot(facts.cwd);
  const off = await readOffSwitch({ stateDir: facts.stateDir, sessionId: facts.sessionId, projectRoot, env: facts.env });
  const diagnostics: string[] = [...off.diagnostics];
  const switchedOff = off.off ? `checkpoints are off (${off.source})` : undefined;
  // The status line shows the level whatever the switches say, so it needs the configuration anyway.
  if (switchedOff !== undefined && facts.need !== 'status') return { kind: 'pass', reason: 'switched-off', detail: switchedOff, diagnostics };

  const loaded = await loadConfig({ cwd: facts.cwd, projectRoot, env: facts.env, sections: contextCheckpointSections });
  for (const note of loaded.diagnostics) diagnostics.push(`config: ${note}`);
  const settings: ContextHookSettings = { projectRoot, config: loaded.config, context: contextCheckpointConfigOf(loaded.config) };
  const pass = (reason: ContextHookOffReason, detail: string): ContextHookGate => ({ kind: 'pass', reason, detail, settings, diagnostics });
  if (!loaded.config.enabled) return pass('disabled', '"enabled": false');
  if (switchedOff !== undefined) return pass('switched-off', switchedOff);
  switch (facts.need) {
    case 'handoff':
      return settings.context.handoff.enabled ? { kind: 'open', settings, diagnostics } : pass('handoffs-disabled', 'handoff.enabled is false');
    case 'context':
      return settings.context.context.enabled ? { kind: 'open', settings, diagnostics } : pass('context-disabled', 'context.enabled is not true');
    case 'status':
      return { kind: 'open', settings, diagnostics };
  }
}
