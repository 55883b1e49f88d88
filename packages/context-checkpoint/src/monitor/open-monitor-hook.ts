import { findProjectRoot } from '@agent-checkpoint/core/hot-path';
import { probeContextConfig, type ContextProbe } from './probe-context-config.ts';

/** What the route knows after reading a PostToolUse / AfterTool payload. */
export interface MonitorFacts {
  /** The session's working directory, chosen by the route. */
  readonly cwd: string;
  readonly sessionId: string | undefined;
  readonly transcriptPath: string | undefined;
  /** The user configuration file (core's `userConfigPath`, computed by the route without core's index). */
  readonly userConfigFile: string;
}

/** The monitor's session, once the first half of its early check let it through. */
export interface MonitorSession {
  readonly sessionId: string;
  readonly transcriptPath: string;
  readonly cwd: string;
  /** `findProjectRoot(cwd)`, for the project's off switch. */
  readonly projectRoot: string;
  readonly probe: ContextProbe;
}

/** Result of {@link openMonitorHook}. */
export type MonitorGate =
  | { readonly kind: 'pass'; readonly reason: 'disabled' | 'no-session'; readonly detail: string; readonly diagnostics: readonly string[] }
  | { readonly kind: 'probed'; readonly session: MonitorSession; readonly diagnostics: readonly string[] };

/**
 * The monitor's early check, first half (the gate bundle, after every tool call): the `context`
 * settings probed from the user and project files without the configuration loader (zod, presets,
 * trust), and the session the monitor needs. Its second half, the off switches with the project root,
 * is `checkMonitorSwitches` in the decision bundle: the switch paths are digests, and a disabled
 * monitor (the default) must not load node:crypto. Together they are the monitor's `openContextHook`;
 * the acting part (L2/L3) re-checks with the full one.
 */
export async function openMonitorHook(facts: MonitorFacts): Promise<MonitorGate> {
  const projectRoot = findProjectRoot(facts.cwd);
  const probe = await probeContextConfig(facts.userConfigFile, projectRoot);
  const diagnostics = probe.notes.map((note) => `config: ${note}`);
  if (!probe.enabled) return { kind: 'pass', reason: 'disabled', detail: 'context.enabled is not true', diagnostics };
  if (facts.sessionId === undefined || facts.transcriptPath === undefined) {
    return { kind: 'pass', reason: 'no-session', detail: 'the payload has no session_id or transcript_path', diagnostics };
  }
  return { kind: 'probed', session: { sessionId: facts.sessionId, transcriptPath: facts.transcriptPath, cwd: facts.cwd, projectRoot, probe }, diagnostics };
}
