import type { ConfigFile } from '../config-schema.ts';

/**
 * A named configuration bundle for a kind of project. Presets are applied through `extends` or by
 * auto-detection (see {@link Preset.detect}); both go through `resolveConfig`.
 */
export interface Preset {
  /** The name used in `extends` (`"node-pnpm"`). */
  readonly id: string;
  /** One line for `explain`/`doctor`. */
  readonly description: string;
  /**
   * Repo-root marker files or globs (picomatch, relative to the repository root) that auto-detect the
   * preset: it applies when **any** of them exists. Empty: never auto-detected (only via `extends`).
   */
  readonly detect: readonly string[];
  readonly config: ConfigFile;
  /**
   * Presets this one replaces when both are detected (`teleclaude` replaces `python`). A preset also
   * replaces every preset it `extends` (`node-pnpm` replaces `node`). See {@link pickPresets}.
   */
  readonly supersedes?: readonly string[];
}
