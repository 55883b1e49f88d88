/**
 * Ids for everything the mock emits. Each carries `_s<step>_` so a later request can tell which
 * steps were already answered (see `read-responses-request.ts`), and the request number so ids
 * never repeat within a session even when a step is answered twice (a retry).
 */
export interface ReplyIds {
  readonly step: number;
  readonly request: number;
}

export const callId = (prefix: string, ids: ReplyIds, index: number): string =>
  `${prefix}_e2e_s${ids.step}_${index}_r${ids.request}`;

export const itemId = (prefix: string, ids: ReplyIds): string => `${prefix}_e2e_s${ids.step}_r${ids.request}`;
