import { describe, expect, it } from 'vitest';
import { toSafeSessionId } from './safe-session-id.ts';

describe('toSafeSessionId', () => {
  it('keeps agent session ids (UUIDs) as they are', () => {
    expect(toSafeSessionId('246ebb37-79b2-4651-a3d8-dbe841d77578')).toBe('246ebb37-79b2-4651-a3d8-dbe841d77578');
    expect(toSafeSessionId('a.b_c-1')).toBe('a.b_c-1');
  });

  it.each(['../../etc/passwd', '..', '.', '...', 'a/b', 'a\\b', '', 'x y', 'é', 'a\0b', 'a'.repeat(129)])(
    'digests %j so it cannot escape the state directory',
    (id) => {
      const safe = toSafeSessionId(id);
      expect(safe).toMatch(/^[0-9a-f]{64}$/);
    },
  );

  it('is stable and distinguishes ids', () => {
    expect(toSafeSessionId('a/b')).toBe(toSafeSessionId('a/b'));
    expect(toSafeSessionId('a/b')).not.toBe(toSafeSessionId('a/c'));
  });
});
