import { describe, expect, it } from 'vitest';
import { sanitizeText } from './sanitize-paths.ts';

describe('sanitizeText', () => {
  it('replaces the workspace root, its Claude slug, the e2e package, the monorepo and the mock port', () => {
    const context = { workspaceRoot: '/tmp/ac-e2e-0123-AbC', e2eDir: '/src/mono/e2e', mockPort: 40123 };
    const input = JSON.stringify({
      cwd: '/tmp/ac-e2e-0123-AbC/repo',
      transcript: '/tmp/ac-e2e-0123-AbC/home/.claude/projects/-tmp-ac-e2e-0123-AbC-repo/s.jsonl',
      hook: 'node /src/mono/e2e/src/probe-hook.mjs hook /tmp/ac-e2e-0123-AbC/logs/probe-hook.json',
      pkg: '/src/mono/node_modules/.pnpm/x',
      url: 'http://127.0.0.1:40123/v1',
    });
    expect(JSON.parse(sanitizeText(input, context))).toEqual({
      cwd: '/WORK/repo',
      transcript: '/WORK/home/.claude/projects/-WORK-repo/s.jsonl',
      hook: 'node /E2E/src/probe-hook.mjs hook /WORK/logs/probe-hook.json',
      pkg: '/MONOREPO/node_modules/.pnpm/x',
      url: 'http://127.0.0.1:PORT/v1',
    });
  });
});
