import type { AgentId } from '@agent-checkpoint/core';
import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, copyFileSync, ftruncateSync, mkdirSync, openSync, readFileSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryFixture, type DeliveryScenario, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_FIXTURE, CODEX_FIXTURE, DELIVERY_FIXTURES, GEMINI_FIXTURE, COPILOT_FIXTURE, QWEN_FIXTURE } from '../../src/test-support/delivery-fixtures.ts';
import { runHookBundle } from '../../src/test-support/run-hook-bundle.ts';
import { expectAgentContract, readsIgnoreModes, runScenario, startFlipper } from './support.ts';

// The corpus of bad inputs through the bundled hook bin, for each agent (docs/reliability.md): bad
// transcripts, bad configuration files and bad payload fields. Whatever the input: exit 0, stdout
// empty or one JSON object in the agent's format, one-line prefixed diagnostics, no stack trace —
// and, where the route still has something to say, exactly what getCheckpoint says for the same
// inputs (the file-based message when the transcript is unusable).

let world: DeliveryWorld | undefined;
afterEach(() => {
  world?.remove();
  world = undefined;
});

function open(fixture: DeliveryFixture): DeliveryWorld {
  world = createDeliveryWorld(fixture);
  return world;
}

/** Another agent's recorded transcript (the "wrong agent" input). */
const OTHER_AGENT: Record<AgentId, DeliveryFixture> = { claude: CODEX_FIXTURE, gemini: CLAUDE_FIXTURE, codex: GEMINI_FIXTURE, copilot: QWEN_FIXTURE, qwen: COPILOT_FIXTURE, pi: CLAUDE_FIXTURE };

/** One bad transcript: builds the path the payload will carry, inside the world. */
interface TranscriptCase {
  readonly name: string;
  /** Skip where the mechanism cannot work (e.g. file modes when running as root). */
  readonly skip?: () => boolean;
  make(w: DeliveryWorld, fixture: DeliveryFixture): string;
}

const real = (w: DeliveryWorld): string => w.scenario('actionable').transcriptPath;

const TRANSCRIPT_CASES: readonly TranscriptCase[] = [
  {
    name: 'truncated in the middle of a line',
    make: (w) => {
      const bytes = readFileSync(real(w));
      const path = join(w.root, 'truncated.jsonl');
      writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      return path;
    },
  },
  {
    name: 'every other line corrupt',
    make: (w) => {
      const lines = readFileSync(real(w), 'utf8').split('\n');
      const path = join(w.root, 'corrupt.jsonl');
      writeFileSync(path, lines.map((line, i) => (i % 2 === 1 ? `{"type":"user","message":${line.slice(0, 7)}\u0000` : line)).join('\n'));
      return path;
    },
  },
  {
    name: 'binary bytes',
    make: (w) => {
      const path = join(w.root, 'binary.jsonl');
      const bytes = Buffer.alloc(64 * 1024);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
      writeFileSync(path, bytes);
      return path;
    },
  },
  { name: 'empty', make: (w) => writeReturn(join(w.root, 'empty.jsonl'), '') },
  {
    name: 'one line larger than the 512 KiB cap',
    make: (w) =>
      writeReturn(
        join(w.root, 'giant-line.jsonl'),
        `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'x'.repeat(600 * 1024) }, timestamp: new Date().toISOString() })}\n`,
      ),
  },
  {
    name: "another agent's transcript",
    make: (w, fixture) => {
      const path = join(w.root, 'other-agent.jsonl');
      copyFileSync(OTHER_AGENT[fixture.agent]!.transcriptFile, path);
      return path;
    },
  },
  {
    name: 'a 4 GiB sparse file whose last bytes are the real turn (bounded read)',
    make: (w) => {
      const path = join(w.root, 'sparse.jsonl');
      const text = readFileSync(real(w));
      const fd = openSync(path, 'w');
      ftruncateSync(fd, 4 * 1024 ** 3);
      writeSync(fd, Buffer.concat([Buffer.from('\n'), text]), 0, text.length + 1, 4 * 1024 ** 3);
      closeSync(fd);
      return path;
    },
  },
  {
    name: 'a symlink loop',
    make: (w) => {
      const path = join(w.root, 'loop.jsonl');
      symlinkSync(path, path);
      return path;
    },
  },
  {
    name: 'a FIFO nobody writes to',
    make: (w) => {
      const path = join(w.root, 'transcript.fifo');
      execFileSync('mkfifo', [path]);
      return path;
    },
  },
  { name: 'a directory', make: (w) => mkdirReturn(join(w.root, 'dir.jsonl')) },
  { name: 'an endless character device (/dev/zero)', make: () => '/dev/zero' },
  { name: 'a path through a regular file (ENOTDIR)', make: (w) => join(real(w), 'child.jsonl') },
  { name: 'a path longer than PATH_MAX (ENAMETOOLONG)', make: (w) => join(w.root, `${'d'.repeat(200)}/`.repeat(25), 'x.jsonl') },
  {
    name: 'a file without read permission (chmod 000)',
    // Root reads any file whatever its mode: the directory, FIFO and ENOTDIR cases stand in for it.
    skip: readsIgnoreModes,
    make: (w) => {
      const path = join(w.root, 'no-read.jsonl');
      copyFileSync(real(w), path);
      chmodSync(path, 0o000);
      return path;
    },
  },
  {
    name: 'a non-UTF-8 file name (the payload can only carry its U+FFFD decoding)',
    make: (w) => {
      const dir = join(w.root, 'odd');
      mkdirSync(dir);
      const raw = Buffer.concat([Buffer.from(`${dir}/session-`), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('.jsonl')]);
      copyFileSync(real(w), raw);
      return raw.toString('utf8');
    },
  },
  {
    name: 'a readable file whose name holds a newline, quotes, $(…), an RTL override and emoji',
    make: (w) => {
      const dir = join(w.root, 'we"ird $(touch x) \u202e dir\n');
      mkdirSync(dir);
      const path = join(dir, "it's `here` 🧪.jsonl");
      copyFileSync(real(w), path);
      return path;
    },
  },
  { name: 'a relative path', make: () => 'transcripts/session.jsonl' },
];

describe.each(DELIVERY_FIXTURES.map((f) => [f.agent, f] as const))('%s hook: bad transcripts', (_agent, fixture) => {
  for (const testCase of TRANSCRIPT_CASES) {
    it.skipIf(testCase.skip?.() ?? false)(testCase.name, { timeout: 60_000 }, async () => {
      const w = open(fixture);
      const transcriptPath = testCase.make(w, fixture);
      const scenario: DeliveryScenario = { ...w.scenario('actionable'), transcriptPath };
      const before = await w.expected(scenario);
      const result = await runScenario(scenario, { args: ['--debug'] });
      const after = await w.expected(scenario);
      const delivered = expectAgentContract(fixture.agent, result);
      // The route says exactly what getCheckpoint says for the same inputs (the file-based message
      // when the transcript is unusable), or passes when getCheckpoint is silent.
      if (before.decision === 'message') expect([before.message, after.message]).toContain(delivered);
      else expect(delivered).toBeNull();
    });
  }
});

describe.each(DELIVERY_FIXTURES.map((f) => [f.agent, f] as const))('%s hook: a transcript deleted or replaced while hooks read it', (_agent, fixture) => {
  it('every run keeps the contract and says one of the two possible messages', { timeout: 120_000 }, async () => {
    const w = open(fixture);
    const path = real(w);
    // Variants renamed into place and back by another process (rename is atomic): each hook may see
    // the real file, nothing, a directory, a FIFO, a symlink loop or binary bytes — at locate, stat
    // or read time.
    const variants = join(w.root, 'variants');
    mkdirSync(variants);
    copyFileSync(path, join(variants, 'real'));
    mkdirSync(join(variants, 'directory'));
    execFileSync('mkfifo', [join(variants, 'fifo')]);
    symlinkSync(join(variants, 'loop'), join(variants, 'loop'));
    writeFileSync(join(variants, 'binary'), Buffer.from([0, 1, 2, 0xff, 0xfe, 10, 0, 0]));
    const flipper = startFlipper(path, variants, ['real', 'fifo', 'directory', 'real', 'loop', 'binary'], 90_000);
    try {
      const runs = Array.from({ length: 9 }, (_, i) => ({ ...w.scenario('actionable'), sessionId: `${fixture.sessionId.slice(0, 20)}-flip-${i}` }));
      const results = [];
      for (let i = 0; i < runs.length; i += 3) {
        results.push(...(await Promise.all(runs.slice(i, i + 3).map((s) => runScenario(s)))));
      }
      await flipper.stop();
      // The possible answers: with the transcript, and file-based without it (each per session id).
      const missing = join(w.root, 'missing.jsonl');
      for (const [i, result] of results.entries()) {
        const scenario = runs[i]!;
        const delivered = expectAgentContract(fixture.agent, result);
        const possible = [
          (await w.expected({ ...scenario, transcriptPath: join(variants, 'real') })).message,
          (await w.expected({ ...scenario, transcriptPath: missing })).message,
        ];
        expect(possible).toContain(delivered);
      }
    } finally {
      await flipper.stop();
    }
  });
});

/** A config problem through the hook: how to plant it, and whether the hook must pass outright. */
interface ConfigCase {
  readonly name: string;
  plant(w: DeliveryWorld): Record<string, string>;
  /** FIFOs and devices are refused before loading anything: the stop passes with a warning. */
  readonly passes?: boolean;
  readonly stderr: RegExp;
}

const CONFIG_CASES: readonly ConfigCase[] = [
  {
    name: 'invalid JSONC',
    plant: (w) => (writeFileSync(projectConfig(w), '{ "categories": [ { "id": "x", , } '), {}),
    stderr: /^agent-checkpoint: config: .*\.agent-checkpoint\.json: invalid configuration, file ignored/m,
  },
  {
    name: 'huge (2 GiB sparse)',
    plant: (w) => {
      const fd = openSync(projectConfig(w), 'w');
      ftruncateSync(fd, 2 * 1024 ** 3);
      closeSync(fd);
      return {};
    },
    stderr: /^agent-checkpoint: config: .*too large for a configuration file/m,
  },
  {
    name: 'binary bytes',
    plant: (w) => (writeFileSync(projectConfig(w), Buffer.from([0xff, 0x00, 0x7b, 0x80, 0x0a])), {}),
    stderr: /^agent-checkpoint: config: .*invalid configuration, file ignored/m,
  },
  {
    name: 'a directory',
    plant: (w) => (mkdirReturn(join(w.root, 'user-config-dir')), { AGENT_CHECKPOINT_CONFIG: join(w.root, 'user-config-dir') }),
    stderr: /^agent-checkpoint: config: .*user-config-dir: is a directory/m,
  },
  {
    name: 'a symlink loop',
    plant: (w) => {
      const loop = join(w.root, 'config-loop.json');
      symlinkSync(loop, loop);
      return { AGENT_CHECKPOINT_CONFIG: loop };
    },
    stderr: /^agent-checkpoint: config: .*config-loop\.json: cannot be read \(ELOOP\)/m,
  },
  {
    name: 'a FIFO as the user file',
    plant: (w) => {
      const fifo = join(w.root, 'user-config.fifo');
      execFileSync('mkfifo', [fifo]);
      return { AGENT_CHECKPOINT_CONFIG: fifo };
    },
    passes: true,
    stderr: /^agent-checkpoint: .*user-config\.fifo is not a regular file/m,
  },
  {
    name: 'an endless device (/dev/zero) as the user file',
    plant: () => ({ AGENT_CHECKPOINT_CONFIG: '/dev/zero' }),
    passes: true,
    stderr: /^agent-checkpoint: \/dev\/zero is not a regular file/m,
  },
];

// Configuration loading is the same code for every agent: each case runs on one agent, in turn.
describe('bad configuration files', () => {
  for (const [index, testCase] of CONFIG_CASES.entries()) {
    const fixture = DELIVERY_FIXTURES[index % DELIVERY_FIXTURES.length]!;
    it(`${fixture.agent}: ${testCase.name}`, { timeout: 60_000 }, async () => {
      const w = open(fixture);
      const env = testCase.plant(w);
      const scenario = w.scenario('actionable', env);
      const result = await runScenario(scenario, { killAfterMs: 30_000 });
      const delivered = expectAgentContract(fixture.agent, result);
      expect(result.stderr).toMatch(testCase.stderr);
      if (testCase.passes) {
        expect(delivered).toBeNull();
      } else {
        // The broken file is ignored as a whole; the built-in defaults decide, as in getCheckpoint.
        expect(delivered).toBe((await w.expected(scenario)).message);
      }
    });
  }
});

describe('diagnostics stay one line each', () => {
  it('an invalid config in a repository whose path holds a newline and a carriage return', { timeout: 60_000 }, async () => {
    const w = open(CLAUDE_FIXTURE);
    // The same repository, reached through a symlink whose name breaks lines.
    const odd = join(w.root, 'line\nbreak\rhere');
    symlinkSync(w.repo, odd);
    writeFileSync(projectConfig(w), '{ "categories": ');
    const result = await runScenario({ ...w.scenario('actionable'), cwd: odd }, { args: ['--debug'], killAfterMs: 30_000 });
    expectAgentContract('claude', result);
    expect(result.stderr).toMatch(/invalid configuration, file ignored/);
  });
});

describe('bad payload fields (beyond src/cli-input-contract.test.ts)', () => {
  const hostileFields: Array<[string, (w: DeliveryWorld) => Record<string, unknown>]> = [
    ['a cwd that does not exist', (w) => ({ cwd: join(w.root, 'gone') })],
    ['a cwd that is a regular file', (w) => ({ cwd: join(w.repo, 'README.md') })],
    ['a cwd that is a symlink loop', (w) => ({ cwd: loopIn(w.root, 'cwd-loop') })],
    ['a relative cwd', () => ({ cwd: 'repo' })],
    ['a cwd holding a NUL byte', (w) => ({ cwd: `${w.repo}\u0000/x` })],
    ['a transcript path holding a NUL byte', (w) => ({ transcript_path: `${w.root}/a\u0000b.jsonl` })],
    ['a 1 MiB session id', () => ({ session_id: 's'.repeat(1024 * 1024) })],
    ['a session id of control characters', () => ({ session_id: '\u0000\u001b[2J\r\n\u0007' })],
  ];
  // Each field on one agent, in turn (the fields are read by the same code after validation).
  for (const [index, [name, fields]] of hostileFields.entries()) {
    const fixture = DELIVERY_FIXTURES[index % DELIVERY_FIXTURES.length]!;
    it(`${fixture.agent}: ${name}`, { timeout: 60_000 }, async () => {
      const w = open(fixture);
      const result = await runScenario(w.scenario('actionable'), { overrides: fields(w), args: ['--debug'], killAfterMs: 30_000 });
      expectAgentContract(fixture.agent, result);
    });
  }

  it.each(DELIVERY_FIXTURES.map((f) => f.agent))('%s: stdin that is not UTF-8, and JSON nested a million levels deep', { timeout: 60_000 }, async (agent) => {
    const w = open(GEMINI_FIXTURE);
    const cases = [
      Buffer.concat([Buffer.from('{"session_id":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('","hook_event_name":"Stop"}')]),
      Buffer.from(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`),
      Buffer.from(`{"a":${'{"a":'.repeat(500_000)}`),
    ];
    for (const stdin of cases) {
      const result = await runHookBundle({ args: [agent], stdin, env: w.scenario('actionable').env, cwd: w.repo });
      expectAgentContract(agent, result);
    }
  });
});

function projectConfig(w: DeliveryWorld): string {
  return join(w.repo, '.agent-checkpoint.json');
}

function writeReturn(path: string, content: string): string {
  writeFileSync(path, content);
  return path;
}

function mkdirReturn(path: string): string {
  mkdirSync(path);
  return path;
}

function loopIn(dir: string, name: string): string {
  const path = join(dir, name);
  symlinkSync(path, path);
  return path;
}

