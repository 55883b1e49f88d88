/**
 * A recorded turn compiled for fast repetition: the text split around every id the formats key on.
 * Copy `k` gets fresh UUIDs (consistent within the copy, so parent/child links and call/result pairs
 * still match), fresh `_e2e_` call ids, and shifted Codex ordinals; the final copy keeps the recorded
 * ids so the hook payload's `prompt_id` / `turn_id` / prompt find it.
 */
export interface TurnTemplate {
  /** Bytes of one rendered copy (UTF-8); copies differ only in same-length ids. */
  readonly bytes: number;
  readonly lines: number;
  render(copy: number, freshIds: boolean): string;
}

const SLOT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|_e2e_|"ordinal":\d+/g;

type Slot = { kind: 'uuid'; original: string; index: number } | { kind: 'e2e' } | { kind: 'ordinal'; value: number };

export function compileTurnTemplate(text: string, keptIds: readonly string[]): TurnTemplate {
  const kept = new Set(keptIds);
  const statics: string[] = [];
  const slots: Slot[] = [];
  const uuidIndex = new Map<string, number>();
  let last = 0;
  for (const match of text.matchAll(SLOT)) {
    const value = match[0];
    const at = match.index;
    if (value.length === 36 && kept.has(value)) continue;
    statics.push(text.slice(last, at));
    if (value === '_e2e_') slots.push({ kind: 'e2e' });
    else if (value.startsWith('"ordinal"')) slots.push({ kind: 'ordinal', value: Number(value.slice('"ordinal":'.length)) });
    else {
      let index = uuidIndex.get(value);
      if (index === undefined) {
        index = uuidIndex.size;
        uuidIndex.set(value, index);
      }
      slots.push({ kind: 'uuid', original: value, index });
    }
    last = at + value.length;
  }
  statics.push(text.slice(last));
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0').slice(-width);
  return {
    // Ordinals grow by a digit now and then; the size is an estimate good to a few bytes per copy.
    bytes: Buffer.byteLength(text),
    lines,
    render(copy, freshIds) {
      const out: string[] = [statics[0] as string];
      for (let i = 0; i < slots.length; i += 1) {
        const slot = slots[i] as Slot;
        switch (slot.kind) {
          case 'uuid':
            // A UUID-shaped id no real file contains: copy number, then the id's index in the turn.
            out.push(freshIds ? `${hex(copy, 8)}-${hex(slot.index, 4)}-7000-8000-${hex(copy * 65536 + slot.index, 12)}` : slot.original);
            break;
          case 'e2e':
            out.push(freshIds ? `_e2e${copy}_` : '_e2e_');
            break;
          case 'ordinal':
            out.push(`"ordinal":${slot.value + copy * lines}`);
            break;
        }
        out.push(statics[i + 1] as string);
      }
      return out.join('');
    },
  };
}
