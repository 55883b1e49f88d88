import { join } from 'node:path';
import { readConfigBytes } from '@agent-checkpoint/core/hot-path';
import { parse as parseJsonc } from 'jsonc-parser';
import { DEFAULT_CONTEXT_THRESHOLDS } from '../config/context-config.ts';

/** The project configuration file name (core's `PROJECT_CONFIG_FILE`; core's index is not loaded here). */
const PROJECT_CONFIG_FILE = '.agent-checkpoint.json';

/**
 * The `context` settings the monitor's cheap path needs, read without the full configuration loader
 * (zod, presets, trust): the post-tool hook runs after every tool call. The full loader runs only when
 * the monitor acts (delivery-hook's act-on-monitor.ts, through `openContextHook`), and re-decides
 * there with the validated configuration. Read only through `openMonitorHook`.
 */
export interface ContextProbe {
  /** `context.enabled` of the most specific file that sets it (project over user); default false. */
  readonly enabled: boolean;
  readonly windowTokens?: number;
  readonly thresholds?: { readonly l1: number; readonly l2: number; readonly l3: number };
  /** Files that could not be read or parsed (stderr notes; the full loader words them properly). */
  readonly notes: readonly string[];
}

/**
 * Probe the user file and the project file for `context`. Invalid values are ignored (the defaults
 * apply), never thrown: the files are untrusted input.
 */
export async function probeContextConfig(userConfigFile: string, projectRoot: string): Promise<ContextProbe> {
  const notes: string[] = [];
  let enabled = false;
  let windowTokens: number | undefined;
  let thresholds: ContextProbe['thresholds'];
  for (const path of [userConfigFile, join(projectRoot, PROJECT_CONFIG_FILE)]) {
    const context = readContextSection(path, notes);
    if (context === undefined) continue;
    if (typeof context['enabled'] === 'boolean') enabled = context['enabled'];
    const window = context['windowTokens'];
    if (typeof window === 'number' && Number.isInteger(window) && window >= 1000) windowTokens = window;
    const t = context['thresholds'];
    if (typeof t === 'object' && t !== null) {
      const merged: { l1: number; l2: number; l3: number } = { ...DEFAULT_CONTEXT_THRESHOLDS, ...thresholds };
      for (const key of ['l1', 'l2', 'l3'] as const) {
        const v = (t as Record<string, unknown>)[key];
        if (typeof v === 'number' && v > 0 && v <= 100) merged[key] = v;
      }
      if (merged.l1 < merged.l2 && merged.l2 < merged.l3) thresholds = merged;
    }
  }
  return { enabled, ...(windowTokens !== undefined ? { windowTokens } : {}), ...(thresholds ? { thresholds } : {}), notes };
}

function readContextSection(path: string, notes: string[]): Record<string, unknown> | undefined {
  // The configuration loader's read (non-blocking, regular files only, size-capped): the monitor runs
  // after every tool call, so a FIFO here would hang the agent's tool loop and a link to /dev/zero would
  // read forever. Synchronous: two small files, and node:fs/promises would cost more to load.
  const read = readConfigBytes(path);
  switch (read.kind) {
    case 'missing':
      return undefined;
    case 'unusable':
      notes.push(`${path} ${read.problem}; not probed`);
      return undefined;
    case 'read':
      break;
  }
  const text = read.bytes.toString('utf8');
  const parsed = parseConfigText(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const context = (parsed as Record<string, unknown>)['context'];
  return typeof context === 'object' && context !== null && !Array.isArray(context) ? (context as Record<string, unknown>) : undefined;
}

/**
 * Plain JSON first, JSONC (comments, trailing commas) only when that fails: `JSON.parse` is native,
 * while the JSONC scanner's functions are compiled on their first call, about 1 ms of the monitor's
 * run after every tool call for a file of a few lines. Valid JSON reads the same either way (and a
 * `"__proto__"` key stays an own property, where the JSONC parser would assign it).
 */
function parseConfigText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return parseJsonc(text, [], { allowTrailingComma: true }) as unknown;
  }
}
