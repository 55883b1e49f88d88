import { execFile } from 'node:child_process';
import { accessSync, chmodSync, constants, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AgentId } from '@agent-checkpoint/core';
import { createDeliveryWorld, type DeliveryFixture, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHookProgram } from './commands/hook-cli.ts';
import { installRouteOf, type InstallRoute } from './route-commands.ts';
import { buildStopPayload } from './test-support/build-stop-payload.ts';
import { CLAUDE_FIXTURE, CODEX_FIXTURE, COPILOT_FIXTURE, GEMINI_FIXTURE, QWEN_FIXTURE } from './test-support/delivery-fixtures.ts';
import { createHookSandbox, type HookSandbox } from './test-support/hook-sandbox.ts';
import { FIXTURES_DIR } from './test-support/recorded-payloads.ts';
import { HOOK_BUNDLE, runHookBundle } from './test-support/run-hook-bundle.ts';

// Issue 24: every message that names a command names one that works on the route that produced it.
// For each install route × each site that names a command, the real text is produced (the built bin
// where the site is a process: the monitor, the Stop hook, `status`, `doctor` — run through a copy of
// the plugin laid out as the agents install it), every command named in it is found, and each must
// exist on that route: a slash command the plugin's commands/*.md (Claude) or the extension's
// commands/*.toml (Gemini) defines, a Codex skill under skills/, a bin that exists where the text
// says, and a subcommand with options the CLI really has. A message for the model (the monitor's
// "run … to checkpoint") must name a command its shell tool runs: no slash command.

const REPO = resolve(import.meta.dirname, '..', '..', '..');
const SHIPPED_PLUGIN = join(REPO, 'plugins', 'agent-checkpoint');

type Audience = 'person' | 'agent';
/** What produced a text: a hook the agent started on `route`, or a command a person ran through `cli`. */
type Producer = { readonly kind: 'hook'; readonly route: InstallRoute } | { readonly kind: 'cli'; readonly cli: 'package' | 'plugin' };

interface RouteCase {
  readonly name: InstallRoute['kind'];
  readonly agent: AgentId;
  /** The variables the agent (or our extension's hooks) sets for a hook of this route. */
  readonly env: Readonly<Record<string, string>>;
}

let sandbox: HookSandbox;
/** A copy of the plugin as an agent installs it: the extension root holds plugins/agent-checkpoint/{bin,dist}. */
let extensionRoot: string;
let pluginRoot: string;
let routes: RouteCase[];
/** A PATH directory holding only `node`. */
let nodeDir: string;

beforeAll(() => {
  sandbox = createHookSandbox('ac-route-sites-');
  extensionRoot = join(sandbox.root, 'installed-extension');
  pluginRoot = join(extensionRoot, 'plugins', 'agent-checkpoint');
  mkdirSync(join(pluginRoot, 'bin'), { recursive: true });
  mkdirSync(join(pluginRoot, 'dist'));
  copyFileSync(join(SHIPPED_PLUGIN, 'bin', 'agent-checkpoint-hook'), join(pluginRoot, 'bin', 'agent-checkpoint-hook'));
  chmodSync(join(pluginRoot, 'bin', 'agent-checkpoint-hook'), 0o755);
  // The bundle built from these sources (vitest's global setup), not the committed plugin bundle.
  const built = join(HOOK_BUNDLE, '..');
  for (const file of readdirSync(built)) copyFileSync(join(built, file), join(pluginRoot, 'dist', file));
  nodeDir = join(sandbox.root, 'node-bin');
  mkdirSync(nodeDir);
  symlinkSync(process.execPath, join(nodeDir, 'node'));
  routes = [
    { name: 'settings', agent: 'claude', env: {} },
    { name: 'claude-plugin', agent: 'claude', env: { CLAUDE_PLUGIN_ROOT: pluginRoot } },
    { name: 'codex-plugin', agent: 'codex', env: { PLUGIN_ROOT: pluginRoot } },
    { name: 'gemini-extension', agent: 'gemini', env: { AGENT_CHECKPOINT_EXTENSION_PATH: extensionRoot } },
  ];
});
afterAll(() => sandbox.remove());

// ── what the CLI, the plugin and the extension define ──

const PROGRAM = createHookProgram(async () => undefined).program;
const SUBCOMMANDS = new Map(PROGRAM.commands.filter((c) => !(c as unknown as { _hidden: boolean })._hidden).map((c) => [c.name(), new Set(c.options.map((o) => o.long))]));
/** A slash command's or skill's file name → the CLI command it runs (`checkpoint-off` → `off`). */
const slashTarget = (name: string): string => (name === 'checkpoint' ? name : name.replace(/^checkpoint-/, ''));
const packageBin = (JSON.parse(readFileSync(join(REPO, 'packages', 'delivery-hook', 'package.json'), 'utf8')) as { publishConfig: { bin: Record<string, string> } }).publishConfig.bin;

/** One shell word as the shell reads it (our texts quote with '…' and '\''). */
function unquote(word: string): string {
  return word.startsWith("'") ? word.slice(1, -1).replaceAll("'\\''", "'") : word;
}

const SINGLE_QUOTED = String.raw`'(?:[^']|'\\'')*'`;
const COMMAND = new RegExp(
  '(?:' +
  [
    // node <plugin>/dist/agent-checkpoint-hook.cjs <command>
    String.raw`node\s+(?<bundle>${SINGLE_QUOTED}|[^\s\`'"]+\.cjs)`,
    // <plugin>/bin/agent-checkpoint-hook <command>, quoted or not
    String.raw`(?<tool>'(?:[^']|'\\'')*\/bin\/agent-checkpoint-hook'|\/[^\s\`'"()]*\/bin\/agent-checkpoint-hook)`,
    // agent-checkpoint-hook <command>, by name
    String.raw`(?<![\w/.'-])(?<bare>agent-checkpoint-hook)(?![\w.-])`,
  ].join('|') +
    String.raw`)[ \t]+(?<sub>[a-z][a-z-]*)(?<rest>[^\`;()\n]*)`,
  'g',
);
const CLAUDE_SLASH = /\/agent-checkpoint:(?<name>[a-z-]+)(?<rest>[^`;()\n]*)/g;
const GEMINI_SLASH = /(?<![\w/.:-])\/(?<name>checkpoint(?:-[a-z]+)?|estimate|shard)(?![\w/.:-])(?<rest>[^`;()\n]*)/g;
const CODEX_SKILL = /\$agent-checkpoint:(?<name>[a-z-]+)/g;

/** The problems with the commands `text` names, for `audience`, on what produced it; and how many it names. */
function checkCommands(text: string, producer: Producer, audience: Audience): { named: number; problems: string[] } {
  const problems: string[] = [];
  let named = 0;
  const route = producer.kind === 'hook' ? producer.route : undefined;
  const ownTool = join(pluginRoot, 'bin', 'agent-checkpoint-hook');
  const ownBundle = join(pluginRoot, 'dist', 'agent-checkpoint-hook.cjs');
  const checkOptions = (shown: string, sub: string, rest: string): void => {
    const options = SUBCOMMANDS.get(sub);
    if (options === undefined) return void problems.push(`${shown}: no command "${sub}"`);
    for (const option of rest.match(/--[a-z][a-z-]*/g) ?? []) if (!options.has(option)) problems.push(`${shown}: "${sub}" has no option ${option}`);
  };

  for (const m of text.matchAll(COMMAND)) {
    named += 1;
    const { bundle, tool, bare, sub, rest } = m.groups as Record<string, string | undefined>;
    const shown = m[0].trim();
    checkOptions(shown, sub!, rest ?? '');
    if (bare !== undefined) {
      // By name: the package's bin on the PATH (a settings install), or Claude Code's Bash tool, which
      // has the plugin's bin/ on its PATH — for the model only, never for a person at a terminal.
      const works =
        producer.kind === 'cli' ? producer.cli === 'package' && packageBin['agent-checkpoint-hook'] !== undefined : route!.kind === 'settings' || (route!.kind === 'claude-plugin' && audience === 'agent');
      if (!works) problems.push(`${shown}: agent-checkpoint-hook is on no PATH here`);
    } else if (tool !== undefined) {
      const path = unquote(tool);
      if (producer.kind === 'hook' ? route!.kind === 'settings' : producer.cli !== 'plugin') problems.push(`${shown}: a plugin's tool, but no plugin produced this`);
      else if (path !== ownTool) problems.push(`${shown}: not this plugin's tool ${ownTool}`);
      else accessSync(path, constants.X_OK);
    } else if (bundle !== undefined) {
      const path = unquote(bundle);
      if (route === undefined || route.kind === 'settings') problems.push(`${shown}: a plugin's bundle, but no plugin hook produced this`);
      else if (path !== ownBundle || !statSync(path).isFile()) problems.push(`${shown}: not this plugin's bundle ${ownBundle}`);
    }
  }
  const slash = (kind: InstallRoute['kind'], file: (name: string) => string) => (m: RegExpMatchArray) => {
    named += 1;
    const { name, rest } = m.groups as { name: string; rest?: string };
    const shown = m[0].trim();
    if (audience === 'agent') problems.push(`${shown}: a slash command, but the model runs commands with its shell tool`);
    else if (route?.kind !== kind) problems.push(`${shown}: only a ${kind} has it`);
    else if (!existsSync(file(name))) problems.push(`${shown}: ${file(name)} does not exist`);
    checkOptions(shown, slashTarget(name), rest ?? '');
  };
  for (const m of text.matchAll(CLAUDE_SLASH)) slash('claude-plugin', (name) => join(SHIPPED_PLUGIN, 'commands', `${name}.md`))(m);
  for (const m of text.matchAll(GEMINI_SLASH)) slash('gemini-extension', (name) => join(REPO, 'commands', `${name}.toml`))(m);
  for (const m of text.matchAll(CODEX_SKILL)) slash('codex-plugin', (name) => join(SHIPPED_PLUGIN, 'skills', name, 'SKILL.md'))(m);
  return { named, problems };
}

// ── the sites ──

// The agents with context-level fixtures (Pi has none; its context hooks: agents/pi-context-hooks.test.ts).
type ContextAgent = Exclude<AgentId, 'pi'>;
const LEVEL_DIR: Record<ContextAgent, string> = {
  claude: 'claude/2.1.330/context-levels',
  gemini: 'gemini/0.61.0/context-levels',
  codex: 'codex/0.169.0/context-levels',
  copilot: 'copilot/1.0.102/context-levels',
  qwen: 'qwen/0.24.4/context-levels',
};
const FIXTURE: Record<ContextAgent, DeliveryFixture> = { claude: CLAUDE_FIXTURE, gemini: GEMINI_FIXTURE, codex: CODEX_FIXTURE, copilot: COPILOT_FIXTURE, qwen: QWEN_FIXTURE };

function contextAgent(agent: AgentId): ContextAgent {
  if (agent === 'pi') throw new Error('Pi has no context-level fixtures (agents/pi-context-hooks.test.ts)');
  return agent;
}

async function withWorld<T>(agent: AgentId, level: 'L1' | 'L2' | undefined, use: (world: DeliveryWorld) => Promise<T>): Promise<T> {
  const known = contextAgent(agent);
  const world = createDeliveryWorld(level === undefined ? FIXTURE[known] : { ...FIXTURE[known], transcriptFile: join(FIXTURES_DIR, LEVEL_DIR[known], `${level}.jsonl`) });
  try {
    return await use(world);
  } finally {
    world.remove();
  }
}

/** The monitor after a tool call at `level`, through the built bin with the route's variables. */
function monitorText(route: RouteCase, level: 'L1' | 'L2'): Promise<string> {
  return withWorld(route.agent, level, async (world) => {
    world.writeConfig({ ...world.actionableConfig, context: { enabled: true } });
    const s = world.scenario('actionable', route.env);
    const event = route.agent === 'gemini' ? 'AfterTool' : 'PostToolUse';
    const stdin = JSON.stringify({ session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: s.cwd, hook_event_name: event, tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: 'ok' });
    const run = await runHookBundle({ args: ['post-tool', route.agent], stdin, env: s.env, cwd: s.cwd });
    expect(run, run.stderr).toMatchObject({ code: 0 });
    return run.stdout;
  });
}

/**
 * The Stop hook's block of an actionable turn through the built bin: with an untrusted project key
 * (the trust notice), or at L1 with context checkpoints on (the context line rides along).
 */
function stopText(route: RouteCase, level?: 'L1'): Promise<string> {
  return withWorld(route.agent, level, async (world) => {
    world.writeConfig(level === undefined ? { ...world.actionableConfig, runTests: { command: 'true' } } : { ...world.actionableConfig, context: { enabled: true } });
    const s = world.scenario('actionable', route.env);
    const run = await runHookBundle({ args: [route.agent], stdin: JSON.stringify(buildStopPayload(s)), env: s.env, cwd: s.cwd });
    expect(run, run.stderr).toMatchObject({ code: 0 });
    return run.stdout;
  });
}

/** The bin a person runs from a terminal on this route: the package's (settings), else the plugin's tool (a sh script). */
function runCli(route: RouteCase, args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  if (route.name === 'settings') return runHookBundle({ args, env, cwd });
  return new Promise((done, fail) => {
    execFile(join(pluginRoot, 'bin', 'agent-checkpoint-hook'), args, { env, cwd, timeout: 30_000 }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number') return fail(error);
      done({ code: error === null ? 0 : (error.code as number), stdout, stderr });
    });
  });
}

/** `status` and `doctor` with every switch off and an untrusted project file: their hints and fixes. */
async function cliTexts(route: RouteCase): Promise<{ status: string; doctor: string }> {
  return withWorld(route.agent, undefined, async (world) => {
    world.writeConfig({ ...world.actionableConfig, runTests: { command: 'true' } });
    // A terminal: none of the agent's variables; node and no agent CLI on the PATH (doctor stays fast).
    const env = { ...world.scenario('actionable').env, PATH: `${nodeDir}:/usr/bin:/bin`, NO_COLOR: '1' };
    for (const args of [['off', '--all'], ['off', '--project'], ['off', '--session', 's-1']]) expect(await runCli(route, args, env, world.repo)).toMatchObject({ code: 0 });
    const status = await runCli(route, ['status', '--session', 's-1'], env, world.repo);
    expect(status, status.stderr).toMatchObject({ code: 0 });
    const doctor = await runCli(route, ['doctor'], env, world.repo);
    // Its first line is the report's title (`agent-checkpoint-hook doctor`), the tool's name, not a command to run.
    return { status: status.stdout, doctor: doctor.stdout.split('\n').slice(1).join('\n') };
  });
}

interface Site {
  readonly name: string;
  readonly audience: Audience;
  readonly producer: (route: RouteCase) => Producer;
  text(route: RouteCase): Promise<string>;
}

const hookProducer = (route: RouteCase): Producer => ({ kind: 'hook', route: installRouteOf(route.agent, route.env) });
const cliProducer = (route: RouteCase): Producer => ({ kind: 'cli', cli: route.name === 'settings' ? 'package' : 'plugin' });

const SITES: readonly Site[] = [
  { name: 'Stop hook: the escape hatch and the trust notice', audience: 'person', producer: hookProducer, text: (route) => stopText(route) },
  { name: 'monitor: the L1 alert', audience: 'agent', producer: hookProducer, text: (route) => monitorText(route, 'L1') },
  { name: 'monitor: the L2 ask without handoffs', audience: 'agent', producer: hookProducer, text: (route) => monitorText(route, 'L2') },
  {
    name: "Stop hook: the context step's L1 line",
    audience: 'agent',
    producer: hookProducer,
    // Only the line (the same block also holds the escape hatch, which is for a person).
    text: async (route) => /Context at \d+%[^"]*?continue if task is nearly complete/.exec(await stopText(route, 'L1'))?.[0] ?? '',
  },
  { name: 'status: the switch hints and the installs', audience: 'person', producer: cliProducer, text: async (route) => (await cliTexts(route)).status },
  { name: 'doctor: the fixes', audience: 'person', producer: cliProducer, text: async (route) => (await cliTexts(route)).doctor },
];

describe('every message that names a command names one that works on the route that produced it', () => {
  for (const site of SITES) {
    it.each(['settings', 'claude-plugin', 'codex-plugin', 'gemini-extension'] as const)(`${site.name} — %s`, async (name) => {
      const route = routes.find((r) => r.name === name)!;
      const text = await site.text(route);
      const { named, problems } = checkCommands(text, site.producer(route), site.audience);
      // Each site names at least one command, or this test would prove nothing about it.
      expect(named, text).toBeGreaterThan(0);
      expect(problems, text).toEqual([]);
    }, 60_000);
  }
});
