import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { buildStopPayload } from './test-support/build-stop-payload.ts';
import { CLAUDE_FIXTURE } from './test-support/delivery-fixtures.ts';
import { parseHookStdout, runHookBundle } from './test-support/run-hook-bundle.ts';

// Issue 12: the repository's own git configuration (written by the agent during the turn) runs no
// program when the real hook bin reads git at the end of the turn.

let world: DeliveryWorld | undefined;
afterEach(() => {
  world?.remove();
  world = undefined;
});

describe('the real hook in a repository whose git config names programs', () => {
  it('fsmonitor hook, clean/process filter and gpg.program: none runs; the block is the same as without them', async () => {
    const w = (world = createDeliveryWorld(CLAUDE_FIXTURE));
    const scenario = w.scenario('actionable');
    const expected = await w.expected(scenario);
    expect(expected.message).toBeDefined();

    const script = (name: string): string => {
      const path = join(w.root, `${name}.sh`);
      writeFileSync(path, `#!/bin/sh\necho "$@" >> '${join(w.root, `marker-${name}`)}'\ncat\n`);
      chmodSync(path, 0o755);
      return path;
    };
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: w.repo, env: scenario.env, encoding: 'utf8' });
    // Every unchanged tracked file stat-dirty (an old mtime the index does not have): `git status`
    // must compare content. Files the turn changed keep their mtimes (attribution reads them).
    const changed = new Set(git('ls-files', '-z', '-m').split('\0'));
    const old = new Date(Date.now() - 2 * 86_400_000);
    const clean = git('ls-files', '-z').split('\0').filter((f) => f !== '' && !changed.has(f));
    expect(clean.length).toBeGreaterThan(0);
    for (const file of clean) utimesSync(join(w.repo, file), old, old);
    // Then the agent writes the repository's config.
    git('config', 'core.fsmonitor', script('fsmonitor'));
    git('config', 'filter.x.clean', script('clean'));
    git('config', 'filter.x.process', script('process'));
    git('config', 'log.showSignature', 'true');
    git('config', 'gpg.program', script('gpg'));
    mkdirSync(join(w.repo, '.git', 'info'), { recursive: true });
    writeFileSync(join(w.repo, '.git', 'info', 'attributes'), '* filter=x\n');

    const result = await runHookBundle({ args: ['claude'], stdin: JSON.stringify(buildStopPayload(scenario)), env: scenario.env, killAfterMs: 30_000 });
    expect(readdirSync(w.root).filter((f) => f.startsWith('marker-'))).toEqual([]);
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(parseHookStdout('claude', result.stdout)).toBe(expected.message);
  });
});
