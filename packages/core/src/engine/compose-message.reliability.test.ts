import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { renderEscapeHatch } from './compose-message.ts';

// The escape hatch is the one place where the message asks the agent (or a person) to run a shell
// command, and it embeds the session id and the state directory path. Those come from the agent's
// payload and the environment, so the command must pass them as literal arguments whatever they
// hold: run by a real shell, it must never run anything planted in them (docs/reliability.md).

const work = realpathSync(mkdtempSync(join(tmpdir(), 'ac-rel-hatch-')));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const marker = join(work, 'pwned');
// A stand-in `agent-checkpoint-hook` that prints its arguments NUL-separated.
const bin = join(work, 'bin');
mkdirSync(bin);
writeFileSync(join(bin, 'agent-checkpoint-hook'), "#!/bin/sh\nprintf '%s\\0' \"$@\"\n");
chmodSync(join(bin, 'agent-checkpoint-hook'), 0o755);

/** Run `command` with `sh -c` in `work`, the stand-in hook first on PATH. Returns the printed arguments. */
function runInShell(command: string): string[] {
  const result = spawnSync('/bin/sh', ['-c', command], {
    cwd: work,
    env: { PATH: `${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}`, MARKER: marker },
    encoding: 'utf8',
    // A hang bound, not a speed target: under load one sh start can take seconds.
    timeout: 30_000,
  });
  return result.stdout.split('\0').slice(0, -1);
}

/** Ids an agent payload could carry: anything, with shell syntax made likely. */
const hostileId = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc
    .array(fc.constantFrom('$(touch "$MARKER")', '`touch "$MARKER"`', '; touch "$MARKER";', "'", '"', '\\', ' ', '\n', '$MARKER', '&&', '|', '*', '~', 'a', '-'), {
      minLength: 1,
      maxLength: 8,
    })
    .map((parts) => parts.join('')),
).filter((id) => !id.includes('\0'));

// Each property spawns 200-300 real shells: vitest's 5 s default is a speed target these runs miss on a
// loaded 2-core machine (seen failing at 6-9 s). Speed lives in benchmarks; this bound only stops a hang.
describe('the escape hatch command passes untrusted values as literal arguments', { timeout: 120_000 }, () => {
  it('the person’s command (`agent-checkpoint-hook off --session {sessionId}`) keeps any session id one literal word', () => {
    fc.assert(
      fc.property(hostileId, (id) => {
        rmSync(marker, { force: true });
        const command = renderEscapeHatch('agent-checkpoint-hook off --session {sessionId}', id);
        expect(runInShell(command)).toEqual(['off', '--session', id]);
        expect(existsSync(marker)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('the fallback {offCommand} (no state directory known) keeps any session id one literal word', () => {
    fc.assert(
      fc.property(hostileId, (id) => {
        rmSync(marker, { force: true });
        expect(runInShell(renderEscapeHatch('{offCommand}', id))).toEqual(['off', '--session', id]);
        expect(existsSync(marker)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('{offCommand} with an off file creates exactly that file, whatever the state directory path holds', () => {
    fc.assert(
      fc.property(hostileId, hostileId, (dirName, id) => {
        rmSync(marker, { force: true });
        const safeDir = dirName.replaceAll('/', '∕');
        const offFile = join(work, 'state', safeDir, 'switches', `session-${id.replaceAll('/', '∕')}.off`);
        runInShell(renderEscapeHatch('{offCommand}', id, offFile));
        expect(existsSync(offFile)).toBe(true);
        expect(existsSync(marker)).toBe(false);
        rmSync(join(work, 'state'), { recursive: true, force: true });
      }),
      { numRuns: 200 },
    );
  });
});
