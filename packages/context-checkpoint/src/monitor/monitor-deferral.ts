import { readSmallFileSync, sessionStatePath, type SessionStateLocation } from '@agent-checkpoint/core/hot-path';
import type { MonitorDeferral } from './monitor-action.ts';

/** The user's live deferral, if any, and why the file was ignored (the monitor then acts as if none). */
export interface MonitorDeferralRead {
  readonly deferred?: MonitorDeferral;
  readonly diagnostic?: string;
}

/**
 * The deferral `checkpoint --defer` recorded ("one more task", L1/L2, never L3), read from the
 * session state's context slot (`extensions.context.deferredLevel`) with `JSON.parse` and a check of
 * that one field, not core's zod schema: this runs after every tool call.
 *
 * The turn end that consumes the deferral removes it from this same file (`planContextStep`), so it
 * holds the monitor back exactly until then and never outlives it. A missing file or slot is no
 * deferral; a corrupt or unreadable file is no deferral plus a diagnostic. Never throws.
 */
export function readMonitorDeferral(location: SessionStateLocation): MonitorDeferralRead {
  const path = sessionStatePath(location);
  const ignored = (why: string): MonitorDeferralRead => ({ diagnostic: `session state ${path} ${why}; acting as if nothing was deferred` });
  let text: string | undefined;
  try {
    text = readSmallFileSync(path);
  } catch (error) {
    return ignored(`is unreadable (${error instanceof Error ? error.message : String(error)})`);
  }
  if (text === undefined) return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return ignored('is not valid JSON');
  }
  if (!isRecord(json)) return ignored('is not a JSON object');
  const extensions = json['extensions'];
  const slot = isRecord(extensions) ? extensions['context'] : undefined;
  if (slot === undefined) return {};
  if (!isRecord(slot)) return ignored('has a context slot that is not an object');
  const upTo = slot['deferredLevel'];
  if (upTo === undefined) return {};
  if (upTo !== 'L1' && upTo !== 'L2') return ignored(`has an unknown deferredLevel ${JSON.stringify(upTo)}`);
  return { deferred: { upTo } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
