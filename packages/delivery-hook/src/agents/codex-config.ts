import { readSettingsFile } from '@agent-checkpoint/setup-kit/read-settings-file';
import { parse as parseToml } from 'smol-toml';

/** Codex's config.toml parsed, or undefined (absent, refused, or not TOML: doctor reports those). */
export function readCodexConfig(path: string): Record<string, unknown> | undefined {
  const read = readSettingsFile(path);
  if (read.kind !== 'file') return undefined;
  try {
    return parseToml(read.bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}
