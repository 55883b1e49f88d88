import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The JSONC parser is spied on, not replaced: the probe must give the same answer either way, and
// reach for the parser only when plain JSON does not parse (its first calls compile its scanner: about
// 1 ms of the monitor after every tool call).
const jsonc = vi.hoisted(() => ({ calls: 0 }));
vi.mock('jsonc-parser', async (importOriginal) => {
  const actual = await importOriginal<typeof import('jsonc-parser')>();
  return {
    ...actual,
    parse: (...args: Parameters<typeof actual.parse>) => {
      jsonc.calls += 1;
      return actual.parse(...args);
    },
  };
});

const { probeContextConfig } = await import('./probe-context-config.ts');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-probe-'));
  jsonc.calls = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const userFile = (text: string): string => {
  const path = join(dir, 'user.json');
  writeFileSync(path, text);
  return path;
};

describe('probeContextConfig', () => {
  it('reads plain JSON without the JSONC parser', async () => {
    const probe = await probeContextConfig(userFile('{"context":{"enabled":true,"windowTokens":200000,"thresholds":{"l1":60,"l2":80,"l3":90}}}'), dir);
    expect(probe).toEqual({ enabled: true, windowTokens: 200_000, thresholds: { l1: 60, l2: 80, l3: 90 }, notes: [] });
    expect(jsonc.calls).toBe(0);
  });

  it('reads JSONC (comments, trailing commas) through the JSONC parser, to the same answer', async () => {
    const probe = await probeContextConfig(userFile('{\n  // on for this machine\n  "context": { "enabled": true, "windowTokens": 200000, },\n}\n'), dir);
    expect(probe).toEqual({ enabled: true, windowTokens: 200_000, notes: [] });
    expect(jsonc.calls).toBe(1);
  });

  it('the project file overrides the user file; a "__proto__" key is plain data', async () => {
    writeFileSync(join(dir, '.agent-checkpoint.json'), '{"__proto__":{"context":{"enabled":true}},"context":{"enabled":false}}');
    const probe = await probeContextConfig(userFile('{"context":{"enabled":true}}'), dir);
    expect(probe.enabled).toBe(false);
  });

  it('a file that is neither JSON nor JSONC leaves the defaults', async () => {
    expect(await probeContextConfig(userFile('{"context": {"enabled": tru'), dir)).toEqual({ enabled: false, notes: [] });
  });
});
