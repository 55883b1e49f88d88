import type { ConfigSectionSource } from '../config/config-section.ts';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentId } from '../agent-id.ts';
import type { ConfigFile } from '../config/config-schema.ts';
import { DEFAULT_PREFIX } from '../config/default-config.ts';
import { getCheckpoint } from '../get-checkpoint.ts';
import type { CheckpointOutcome } from '../get-checkpoint-types.ts';
import { setOffSwitch } from '../state/off-switches.ts';
import type { TranscriptReader, TurnHint } from '../transcript/transcript-reader.ts';

/**
 * The shared conformance suite of delivery routes (the hook route, the tmux route…), in the manner
 * of unstorage's `testDriver`: each route package calls {@link deliveryRouteSuite} with an adapter,
 * and the suite checks the behaviour every route must share, on real git repositories and real
 * recorded transcripts.
 *
 * What it asserts, per agent fixture:
 * - an actionable turn gets exactly one delivery, and the delivered text is byte-identical to
 *   `getCheckpoint(...).message` for the same inputs (parity across routes);
 * - a second stop in the same turn gets nothing (also with the agent's `stop_hook_active` false, as
 *   Gemini sends after a tool call), and so does a third with it true;
 * - an all-clear turn gets nothing;
 * - `AGENT_CHECKPOINT_DISABLE=1` and the per-session off switch silence it;
 * - a garbage, missing or directory transcript path yields the file-based message or nothing, never
 *   a crash (the adapter's `deliver` must resolve).
 */

/** Which situation a scenario sets up. */
export type DeliveryScenarioKind =
  | 'actionable'
  | 'repeat-stop'
  | 'repeat-stop-active'
  | 'all-clear'
  | 'disabled-env'
  | 'disabled-session'
  | 'garbage-transcript'
  | 'missing-transcript'
  | 'directory-transcript';

/** Everything a route needs to deliver one end-of-turn event. Paths are absolute and real. */
export interface DeliveryScenario {
  readonly kind: DeliveryScenarioKind;
  readonly agent: AgentId;
  /** The session's working directory: the top of a real git repository. */
  readonly cwd: string;
  /** The transcript as the agent would report it (may be garbage, missing or a directory). */
  readonly transcriptPath: string;
  readonly sessionId: string;
  /** What the agent's payload says about the turn (Claude `prompt_id`, Codex `turn_id`, Gemini `prompt`). */
  readonly hint: TurnHint;
  /** The agent's re-entry flag, for routes that have one (hooks); others ignore it. */
  readonly stopHookActive: boolean;
  /**
   * The complete environment to run the route with: an isolated HOME, XDG dirs and
   * `AGENT_CHECKPOINT_STATE_DIR` in the scenario's temp dir, a hermetic git config, and `PATH`.
   */
  readonly env: Readonly<Record<string, string>>;
  /** The state directory (`AGENT_CHECKPOINT_STATE_DIR`). */
  readonly stateDir: string;
}

/** What a route under test provides. */
export interface DeliveryRouteAdapter {
  /** Shown in test names. */
  readonly name: string;
  /**
   * Deliver the checkpoint for this end-of-turn event the way the route does in production (run the
   * real bin, type into a real tmux pane…) and return the exact text that reached the agent, or null
   * when nothing was delivered. Must resolve for every scenario: a crash is a failure.
   */
  deliver(scenario: DeliveryScenario): Promise<string | null>;
}

/** A recorded session of one agent that the suite turns into scenarios. */
export interface DeliveryFixture {
  readonly agent: AgentId;
  /** The agent's transcript reader (the suite calls `getCheckpoint` with it for parity). */
  readonly reader: TranscriptReader;
  /** A real recorded transcript whose last turn edits `changedFiles` and ends with no checkpoint yet. */
  readonly transcriptFile: string;
  /**
   * The working directory recorded in the transcript (e.g. `/home/user/repo`). Occurrences are
   * replaced by the temp repository's path when the transcript is copied, so tool-call paths point
   * into the repository.
   */
  readonly recordedCwd?: string;
  /**
   * Repo-relative files the recorded turn changed: content before the turn (committed; null for a
   * file the turn created) and after it (left uncommitted).
   */
  readonly changedFiles: Readonly<Record<string, { readonly before: string | null; readonly after: string }>>;
  readonly sessionId: string;
  /** The payload hint of the recorded turn. */
  readonly hint: TurnHint;
  /**
   * A recorded turn with nothing left to do once `evidence` counts as the action's evidence (an empty
   * list: the category asks for no action). Recorded turns that fail on purpose cannot be all-clear,
   * so this may be another session of the same agent. The same `changedFiles` are applied.
   */
  readonly allClear: {
    readonly transcriptFile: string;
    readonly recordedCwd?: string;
    readonly sessionId: string;
    readonly hint: TurnHint;
    readonly evidence: readonly string[];
  };
}

/** Options of {@link deliveryRouteSuite}. */
export interface DeliveryRouteSuiteOptions {
  readonly route: DeliveryRouteAdapter;
  readonly fixtures: readonly DeliveryFixture[];
  /** Routes without a re-entry flag (tmux) skip the `stop_hook_active: true` scenario. */
  readonly supportsStopHookActive?: boolean;
  /** Per-test timeout (routes run real processes). Default 60 s. */
  readonly timeoutMs?: number;
}

/** The action text of the suite's category: nobody runs this command, so the turn stays actionable. */
const CONFORMANCE_ACTION = 'Run `conformance-check` to verify the change.';

/** Register the suite (call at the top level of a `*.test.ts` file). */
export function deliveryRouteSuite(options: DeliveryRouteSuiteOptions): void {
  const { route } = options;
  const timeout = options.timeoutMs ?? 60_000;
  describe(`delivery route conformance: ${route.name}`, () => {
    for (const fixture of options.fixtures) {
      describe(fixture.agent, () => {
        let world: DeliveryWorld;
        beforeEach(() => {
          world = createDeliveryWorld(fixture);
        });
        afterEach(() => {
          world.remove();
        });

        it('actionable turn: exactly one delivery, byte-identical to getCheckpoint().message', { timeout }, async () => {
          const scenario = world.scenario('actionable');
          const before = await world.expected(scenario);
          expect(before.decision, `fixture precondition: ${before.mode} ${before.diagnostics.join('; ')}`).toBe('message');
          const delivered = await route.deliver(scenario);
          const after = await world.expected(scenario);
          expect(delivered).not.toBeNull();
          // The message may only differ between the two reference calls if a clock-dependent part
          // (the turn window in minutes) ticked over during delivery.
          expect([before.message, after.message]).toContain(delivered);
          expect(delivered?.startsWith(world.prefix)).toBe(true);
        });

        it('second stop in the same turn: nothing, with or without stop_hook_active', { timeout }, async () => {
          expect(await route.deliver(world.scenario('actionable'))).not.toBeNull();
          expect(await route.deliver(world.scenario('repeat-stop'))).toBeNull();
          if (options.supportsStopHookActive !== false) {
            expect(await route.deliver(world.scenario('repeat-stop-active'))).toBeNull();
          }
        });

        it('all-clear turn: nothing', { timeout }, async () => {
          world.useAllClearConfig();
          const scenario = world.scenario('all-clear');
          const expected = await world.expected(scenario);
          expect(expected.decision, `fixture precondition: ${expected.mode} ${expected.message ?? ''}`).toBe('silent');
          expect(expected.mode).toBe('all-clear');
          expect(await route.deliver(scenario)).toBeNull();
        });

        it('AGENT_CHECKPOINT_DISABLE=1: nothing', { timeout }, async () => {
          const scenario = world.scenario('disabled-env', { AGENT_CHECKPOINT_DISABLE: '1' });
          expect((await world.expected(world.scenario('actionable'))).decision).toBe('message');
          expect(await route.deliver(scenario)).toBeNull();
        });

        it('session switched off: nothing, and on again: delivered', { timeout }, async () => {
          const scenario = world.scenario('disabled-session');
          await setOffSwitch({ stateDir: scenario.stateDir, scope: { kind: 'session', sessionId: scenario.sessionId }, off: true });
          expect(await route.deliver(scenario)).toBeNull();
          await setOffSwitch({ stateDir: scenario.stateDir, scope: { kind: 'session', sessionId: scenario.sessionId }, off: false });
          expect(await route.deliver(world.scenario('actionable'))).not.toBeNull();
        });

        for (const kind of ['garbage-transcript', 'missing-transcript', 'directory-transcript'] as const) {
          it(`${kind.replace('-', ' ')}: the file-based message or nothing, never a crash`, { timeout }, async () => {
            const scenario = world.scenario(kind);
            const before = await world.expected(scenario);
            const delivered = await route.deliver(scenario);
            if (delivered !== null) {
              const after = await world.expected(scenario);
              expect([before.message, after.message]).toContain(delivered);
              // File-based: without transcript data every uncommitted file is on the file axis.
              expect(before.files.map((f) => f.file.path).sort()).toEqual(Object.keys(fixture.changedFiles).sort());
              expect(before.files.every((f) => f.reason === 'fallback-all-uncommitted')).toBe(true);
            }
          });
        }
      });
    }
  });
}

/**
 * One temp world per test: HOME, state dir, a git repository holding the recorded turn's changes and
 * the copied transcript. Exported so routes can write their own scenario tests on the same worlds.
 */
export interface DeliveryWorld {
  readonly prefix: string;
  scenario(kind: DeliveryScenarioKind, extraEnv?: Readonly<Record<string, string>>): DeliveryScenario;
  /** `getCheckpoint` for the same inputs the route gets (the parity reference). */
  expected(scenario: DeliveryScenario): Promise<CheckpointOutcome>;
  useAllClearConfig(): void;
  /** Replace the project config (`.agent-checkpoint.json`, ignored by git); may hold config-section keys. */
  writeConfig(config: ConfigFile & Readonly<Record<string, unknown>>): void;
  /** The base config that makes the recorded turn actionable. */
  readonly actionableConfig: ConfigFile;
  readonly root: string;
  readonly repo: string;
  readonly stateDir: string;
  remove(): void;
}

/** Build a {@link DeliveryWorld} for a fixture; call `remove()` when done. */
export function createDeliveryWorld(
  fixture: DeliveryFixture,
  options: {
    /** Config sections of the routes' extensions, for {@link DeliveryWorld.expected}'s config loading. */
    readonly configSections?: ConfigSectionSource;
  } = {},
): DeliveryWorld {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `ac-conformance-${fixture.agent}-`)));
  const home = join(root, 'home');
  const repo = join(root, 'repo');
  const stateDir = join(root, 'state');
  mkdirSync(home);
  mkdirSync(repo);
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    AGENT_CHECKPOINT_STATE_DIR: stateDir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig-empty'),
    GIT_CEILING_DIRECTORIES: root,
    GIT_AUTHOR_NAME: 'Conformance',
    GIT_AUTHOR_EMAIL: 'conformance@example.invalid',
    GIT_COMMITTER_NAME: 'Conformance',
    GIT_COMMITTER_EMAIL: 'conformance@example.invalid',
    LANG: 'C.UTF-8',
  };
  const git = (...args: string[]): void => {
    execFileSync('git', args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
  };
  // History from long before the recorded turn, so nothing counts as committed during it.
  const longAgo = { GIT_AUTHOR_DATE: '@1577836800 +0000', GIT_COMMITTER_DATE: '@1577836800 +0000' };
  git('init', '-q', '-b', 'main');
  writeFile(join(repo, 'README.md'), '# conformance\n');
  for (const [file, { before }] of Object.entries(fixture.changedFiles)) if (before !== null) writeFile(join(repo, file), before);
  // The config file is ignored by git, so switching it between scenarios changes no file of the turn.
  writeFile(join(repo, '.gitignore'), '.agent-checkpoint.json\n');
  writeConfig(repo, actionableConfig(fixture));
  git('add', '-A');
  execFileSync('git', ['commit', '-q', '--no-verify', '-m', 'before the turn'], { cwd: repo, env: { ...env, ...longAgo }, stdio: 'ignore' });
  // The turn's changes, uncommitted (written now: after the recorded turn started).
  for (const [file, { after }] of Object.entries(fixture.changedFiles)) writeFile(join(repo, file), after);

  const transcripts = join(root, 'transcripts');
  mkdirSync(transcripts);
  const transcript = join(transcripts, 'session.jsonl');
  let text = readFileSync(fixture.transcriptFile, 'utf8');
  if (fixture.recordedCwd !== undefined) text = replaceRecordedCwd(text, fixture.recordedCwd, repo);
  writeFileSync(transcript, text);
  const allClearTranscript = join(transcripts, 'all-clear.jsonl');
  let allClearText = readFileSync(fixture.allClear.transcriptFile, 'utf8');
  const allClearCwd = fixture.allClear.recordedCwd ?? fixture.recordedCwd;
  if (allClearCwd !== undefined) allClearText = replaceRecordedCwd(allClearText, allClearCwd, repo);
  writeFileSync(allClearTranscript, allClearText);
  const garbage = join(transcripts, 'garbage.jsonl');
  writeFileSync(garbage, Buffer.concat([Buffer.from('{"type":"user","message":'), Buffer.from([0xff, 0xfe, 0x00, 0x0a]), Buffer.from('not json at all\n[1,2\n')]));
  const directory = join(transcripts, 'a-directory.jsonl');
  mkdirSync(directory);

  const pathFor = (kind: DeliveryScenarioKind): string => {
    switch (kind) {
      case 'garbage-transcript':
        return garbage;
      case 'missing-transcript':
        return join(transcripts, 'does-not-exist.jsonl');
      case 'directory-transcript':
        return directory;
      case 'all-clear':
        return allClearTranscript;
      default:
        return transcript;
    }
  };

  return {
    prefix: DEFAULT_PREFIX,
    scenario(kind, extraEnv = {}) {
      return {
        kind,
        agent: fixture.agent,
        cwd: repo,
        transcriptPath: pathFor(kind),
        sessionId: kind === 'all-clear' ? fixture.allClear.sessionId : fixture.sessionId,
        hint: kind === 'all-clear' ? fixture.allClear.hint : fixture.hint,
        stopHookActive: kind === 'repeat-stop-active',
        env: { ...env, ...extraEnv },
        stateDir,
      };
    },
    expected(scenario) {
      return getCheckpoint({
        agent: scenario.agent,
        cwd: scenario.cwd,
        transcript: { reader: fixture.reader, path: scenario.transcriptPath, hint: scenario.hint },
        sessionId: scenario.sessionId,
        // A cache of its own: the route must load (and validate) the config files by itself, never
        // through entries the reference call left behind.
        env: { ...scenario.env, XDG_CACHE_HOME: join(root, 'reference-cache') },
        ...(options.configSections === undefined ? {} : { configSections: options.configSections }),
      });
    },
    useAllClearConfig() {
      writeConfig(repo, allClearConfig(fixture));
    },
    writeConfig(config) {
      writeConfig(repo, config);
    },
    actionableConfig: actionableConfig(fixture),
    root,
    repo,
    stateDir,
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A category over exactly the turn's files, whose evidence nobody ran: the turn is actionable. */
function actionableConfig(fixture: DeliveryFixture): ConfigFile {
  return {
    categories: [{ id: 'conformance', include: Object.keys(fixture.changedFiles), action: CONFORMANCE_ACTION, evidence: ['conformance-check'] }],
    // The recorded turns are short and old; the time rule is the loop guard's own unit tests' business.
    loopGuard: { minTurnSeconds: 0 },
  };
}

/** The same category, satisfied by commands the recorded turn ran: the turn is all-clear. */
function allClearConfig(fixture: DeliveryFixture): ConfigFile {
  return {
    categories: [
      {
        id: 'conformance',
        include: Object.keys(fixture.changedFiles),
        ...(fixture.allClear.evidence.length > 0
          ? { action: CONFORMANCE_ACTION, evidence: [...fixture.allClear.evidence], evidenceAfterLastEdit: false }
          : { action: '' }),
      },
    ],
    hygiene: { editWithoutRead: false, blastRadius: 0 },
    loopGuard: { minTurnSeconds: 0 },
  };
}

function writeConfig(repo: string, config: ConfigFile): void {
  writeFileSync(join(repo, '.agent-checkpoint.json'), `${JSON.stringify(config, null, 2)}\n`);
}

function writeFile(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** Replace a recorded directory path inside JSON text, both raw and JSON-escaped. */
function replaceRecordedCwd(text: string, recorded: string, actual: string): string {
  const escape = (s: string): string => JSON.stringify(s).slice(1, -1);
  return text.split(escape(recorded)).join(escape(actual));
}
