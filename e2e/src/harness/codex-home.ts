import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The model slug the mock answers as: it must be one Codex knows, or it offers no apply_patch. */
export const CODEX_MODEL = 'gpt-5.5';

/** Renders a TOML basic string (JSON string escapes are valid TOML for these values). */
const tomlString = (value: string): string => JSON.stringify(value);

export interface CodexHomeOptions {
  readonly codexHome: string;
  readonly repo: string;
  readonly mockUrl: string;
  /** argv of the notify program (Codex appends the JSON payload as one more argument). */
  readonly notifyArgv: readonly string[];
  /** Shell command of the Stop hook; without it no `hooks.json` is written. */
  readonly stopHookCommand?: string;
  /** Model slug (default {@link CODEX_MODEL}); `gpt-6.1-sol` runs in code mode (codex-code-mode.md §1). */
  readonly model?: string;
}

/**
 * Writes `$CODEX_HOME/config.toml` and `$CODEX_HOME/hooks.json` per codex-cli.md §1 and §4: the
 * mock as a custom Responses provider (no login needed with `env_key`; no retries so a broken
 * mock fails fast), approvals off with full access, update check, analytics and feedback off, the
 * repo trusted, and the TUI's first-run screens (model-migration chooser, tooltips, animations,
 * screen-reader detection) pre-answered.
 */
export function writeCodexHome(options: CodexHomeOptions): void {
  mkdirSync(options.codexHome, { recursive: true });
  const toml = [
    `model = ${tomlString(options.model ?? CODEX_MODEL)}`,
    'model_provider = "mock"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    'check_for_update_on_startup = false',
    `notify = [${options.notifyArgv.map(tomlString).join(', ')}]`,
    '',
    '[model_providers.mock]',
    'name = "Mock Responses"',
    `base_url = ${tomlString(`${options.mockUrl}/v1`)}`,
    'wire_api = "responses"',
    'env_key = "MOCK_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    `[projects.${tomlString(options.repo)}]`,
    'trust_level = "trusted"',
    '',
    '[notice.model_migrations]',
    `${tomlString(CODEX_MODEL)} = "gpt-6-sol"`,
    '',
    '[tui]',
    'show_tooltips = false',
    'animations = false',
    'screen_reader_detection_done = true',
    '',
    '[tui.model_availability_nux]',
    '"gpt-6.1-sol" = 1',
    '',
  ].join('\n');
  writeFileSync(path.join(options.codexHome, 'config.toml'), toml);
  if (options.stopHookCommand === undefined) return;
  const hooks = { hooks: { Stop: [{ hooks: [{ type: 'command', command: options.stopHookCommand, timeout: 30 }] }] } };
  writeFileSync(path.join(options.codexHome, 'hooks.json'), `${JSON.stringify(hooks, null, 2)}\n`);
}
