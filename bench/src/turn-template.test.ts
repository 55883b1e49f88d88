import { describe, expect, it } from 'vitest';
import { compileTurnTemplate } from './turn-template.ts';

const SESSION = '6034e975-c1f1-4608-8b55-5509eda3d3d8';
const A = 'a652681e-405c-4db5-b8e4-67ceb08e17b9';
const B = '22b22775-fe9b-4a6d-a496-64234ff454cf';
const TURN = [
  `{"ordinal":1,"sessionId":"${SESSION}","promptId":"${A}","uuid":"${B}"}`,
  `{"ordinal":2,"sessionId":"${SESSION}","parentUuid":"${B}","id":"toolu_e2e_s0_0_r1"}`,
  '',
].join('\n');

describe('compileTurnTemplate', () => {
  const template = compileTurnTemplate(TURN, [SESSION]);

  it('renders the recorded turn unchanged when ids are kept (copy 0)', () => {
    expect(template.render(0, false)).toBe(TURN);
  });

  it('gives each copy fresh ids, the same within the copy, and keeps the session id', () => {
    const copy = template.render(3, true);
    const [first, second] = copy.split('\n').map((l) => (l === '' ? undefined : (JSON.parse(l) as Record<string, string>)));
    expect(first?.['sessionId']).toBe(SESSION);
    expect(first?.['promptId']).not.toBe(A);
    expect(first?.['uuid']).not.toBe(B);
    // Links inside the copy still match.
    expect(second?.['parentUuid']).toBe(first?.['uuid']);
    expect(second?.['id']).toBe('toolu_e2e3_s0_0_r1');
    expect(template.render(4, true)).not.toContain(String(first?.['promptId']));
  });

  it('shifts Codex ordinals by the turn length per copy', () => {
    const copy = template.render(2, true).split('\n');
    expect(JSON.parse(copy[0] as string)).toMatchObject({ ordinal: 1 + 2 * template.lines });
    expect(template.lines).toBe(2);
  });

  it('keeps the size of a copy within a few bytes (UUIDs keep their length; call ids and ordinals grow a digit)', () => {
    const size = Buffer.byteLength(template.render(7, true));
    expect(size).toBeGreaterThanOrEqual(template.bytes);
    expect(size - template.bytes).toBeLessThanOrEqual(4);
  });
});
