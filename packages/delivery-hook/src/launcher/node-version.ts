import { hookModeOf } from '../hook-modes.ts';

/**
 * The oldest Node.js major the bin runs on. Measured (docs/troubleshooting.md, "Node.js missing or
 * too old"): 18.20 runs every hook and the example checkpoint; 16 lacks `structuredClone`, which the
 * bundle calls (the configuration commands), and 14 cannot parse the bundle. package.json `engines`
 * of delivery-hook says the same.
 */
export const MIN_NODE_MAJOR = 18;

/** What the bin answers on a Node below the minimum: exact stdout, stderr and exit code. */
export interface TooOldNodeAnswer {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}


/**
 * `undefined` when `version` (process.versions.node) is supported; otherwise the answer. A hook mode
 * (hook-modes.ts) exits 0: at session start with one `{"systemMessage":…}` (the once-per-session
 * notice every agent shows the user), at every other event with nothing (the stop passes). A command
 * run by a person prints the same sentence on stderr and exits 1.
 */
export function tooOldNodeAnswer(version: string, args: readonly string[], minMajor: number): TooOldNodeAnswer | undefined {
  const major = Number(version.split('.')[0]);
  if (!Number.isInteger(major) || major >= minMajor) return undefined;
  const sentence = `needs Node.js ${minMajor} or later; the node on PATH is ${version}, so its hooks do nothing. Install Node.js ${minMajor}+ (https://nodejs.org) and start a new session.`;
  const mode = hookModeOf(args[0]);
  if (mode === undefined || !mode.exitZeroWhenBroken) return { stdout: '', stderr: `agent-checkpoint-hook ${sentence}\n`, exitCode: 1 };
  if (mode.whenNodeTooOld === 'notice') return { stdout: `${JSON.stringify({ systemMessage: `agent-checkpoint: ${sentence}` })}\n`, stderr: '', exitCode: 0 };
  return { stdout: '', stderr: '', exitCode: 0 };
}
