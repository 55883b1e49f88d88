import type { CheckpointResult } from '../engine/checkpoint-result.ts';
import type { SessionState } from '../state/session-state.ts';
import type { TurnEndExtension, TurnEndExtensionInput, TurnEndExtensionOutput } from './turn-end-extension.ts';

/** What the extensions, together, changed about a turn's decision. */
export interface AppliedExtensions {
  /** The result after the last extension that replaced it. */
  readonly result: CheckpointResult;
  /** True when any extension replaced the result, reported tests or added lines: recompose the message. */
  readonly changed: boolean;
  readonly tests?: NonNullable<TurnEndExtensionOutput['tests']>;
  /** Context lines of every extension, in extension order. */
  readonly lines: readonly string[];
  /** True when some extension's lines justify a message on their own. */
  readonly blocksAlone: boolean;
  /** `CheckpointOutcome.extensions`: each extension's detail by name (also for one that threw: its error). */
  readonly details: Record<string, unknown>;
  /** Every extension's `onClaimGranted`, composed in extension order (undefined when none asked). */
  readonly onClaimGranted?: (state: SessionState, now: Date) => SessionState;
  readonly diagnostics: readonly string[];
}

/**
 * Run the route's extensions in order, each seeing the result as the previous ones left it. An
 * extension that throws (or returns something that is not an output) contributes nothing but a
 * diagnostic: the decision stays as it was, never a crash and never a silent pass. Never throws.
 */
export async function runExtensions(extensions: readonly TurnEndExtension[], input: TurnEndExtensionInput): Promise<AppliedExtensions> {
  let result = input.result;
  let changed = false;
  let tests: AppliedExtensions['tests'];
  const lines: string[] = [];
  let blocksAlone = false;
  const details: Record<string, unknown> = {};
  const diagnostics: string[] = [];
  const granted: Array<(state: SessionState, now: Date) => SessionState> = [];
  for (const extension of extensions) {
    const name = typeof extension?.name === 'string' && extension.name !== '' ? extension.name : 'unnamed';
    let output: TurnEndExtensionOutput;
    try {
      output = await extension.run({ ...input, result });
      if (typeof output !== 'object' || output === null) throw new Error('it returned no output object');
    } catch (error) {
      diagnostics.push(`extension ${name} failed: ${error instanceof Error ? error.message : String(error)}; decision unchanged`);
      continue;
    }
    for (const line of output.diagnostics ?? []) diagnostics.push(line);
    if (output.detail !== undefined) details[name] = output.detail;
    if (typeof output.onClaimGranted === 'function') granted.push(output.onClaimGranted);
    if (output.result !== undefined) {
      result = output.result;
      changed = true;
    }
    if (output.tests !== undefined) {
      tests = output.tests;
      changed = true;
    }
    if (output.lines !== undefined && output.lines.length > 0) {
      lines.push(...output.lines);
      changed = true;
      if (output.blocksAlone === true) blocksAlone = true;
    }
  }
  const onClaimGranted = granted.length === 0 ? undefined : (state: SessionState, now: Date) => granted.reduce((s, f) => f(s, now), state);
  return { result, changed, ...(tests ? { tests } : {}), lines, blocksAlone, details, ...(onClaimGranted ? { onClaimGranted } : {}), diagnostics };
}
