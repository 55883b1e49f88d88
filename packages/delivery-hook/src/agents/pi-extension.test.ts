import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { shellCommand } from '@agent-checkpoint/setup-kit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOOK_MODE_TABLE } from '../hook-modes.ts';
import { readPiContextPayload } from './pi-context-payload.ts';
import { AGENT_PROFILES } from './profiles.ts';

// Our Pi extension (the plugin's index.js) loaded the way Pi loads it — its default export called
// with an API object — and driven through its event handlers, with hook.json naming a real hook
// process (a small Node script). What Pi 0.73.1 then does with the answers is the e2e's
// (e2e/test/pi-context-hooks.test.ts); here: what each event sends, what it returns to Pi, and that
// nothing a hook does can break Pi.

const SHIPPED = resolve(import.meta.dirname, '../../../../plugins/agent-checkpoint/pi/agent-checkpoint/index.js');

/**
 * The hook process: records its argv and stdin (one JSON line per run in `calls.jsonl`), then answers
 * as `answers.json` says for its mode: `{stdout, exit, sleepMs}`.
 */
const HOOK_SCRIPT = `
import { appendFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
const dir = dirname(fileURLToPath(import.meta.url));
const mode = process.argv[2];
let stdin = '';
process.stdin.on('data', (c) => (stdin += c));
process.stdin.on('end', async () => {
  appendFileSync(join(dir, 'calls.jsonl'), JSON.stringify({ argv: process.argv.slice(2), pid: process.pid, payload: JSON.parse(stdin) }) + '\\n');
  const answer = JSON.parse(readFileSync(join(dir, 'answers.json'), 'utf8'))[mode] ?? {};
  if (answer.sleepMs) await new Promise((r) => setTimeout(r, answer.sleepMs));
  process.stdout.write(answer.stdout ?? '');
  process.exit(answer.exit ?? 0);
});
`;

type Handler = (event: unknown, ctx: unknown) => unknown;

interface Loaded {
  readonly dir: string;
  readonly handlers: Map<string, Handler>;
  readonly sent: unknown[][];
  readonly notified: string[];
  readonly ctx: Record<string, unknown>;
  calls(): { argv: string[]; pid: number; payload: Record<string, unknown> }[];
  answer(answers: Record<string, { stdout?: string; exit?: number; sleepMs?: number }>): void;
  fire(event: string, payload: unknown): Promise<unknown>;
}

const roots: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** hook.json's entries as `install --agent pi --with-context` writes them, the hook process named by `command`. */
function hookJson(command: (mode: string) => string, timeout = 30): unknown {
  const entry = (mode: string) => [{ hooks: [{ type: 'command', command: command(mode), timeout }] }];
  return {
    hooks: {
      turn_end: entry('pi'),
      session_start: entry('session-start'),
      session_before_compact: entry('pre-compact'),
      tool_result: entry('post-tool'),
      before_agent_start: entry('prompt-submit'),
    },
  };
}

/** The extension in a fresh directory (one module instance per test) beside a hook.json and the hook script. */
async function load(options: { dirName?: string; hooks?: (scriptPath: string) => unknown; hasUI?: boolean; configFile?: boolean } = {}): Promise<Loaded> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'ac-pi-ext-')));
  roots.push(root);
  // The session's cwd is a repository (its root bounds the search for a project file); no user file.
  mkdirSync(join(root, '.git'));
  vi.stubEnv('XDG_CONFIG_HOME', join(root, 'config'));
  vi.stubEnv('AGENT_CHECKPOINT_CONFIG', '');
  if (options.configFile ?? true) writeFileSync(join(root, '.agent-checkpoint.json'), '{"context":{"enabled":true}}');
  const dir = join(root, options.dirName ?? 'agent-checkpoint');
  mkdirSync(dir);
  copyFileSync(SHIPPED, join(dir, 'index.js'));
  const script = join(dir, 'hook.mjs');
  writeFileSync(script, HOOK_SCRIPT);
  writeFileSync(join(dir, 'answers.json'), '{}');
  const hooks = options.hooks?.(script) ?? hookJson((mode) => shellCommand([process.execPath, script, mode]));
  writeFileSync(join(dir, 'hook.json'), JSON.stringify(hooks));
  const handlers = new Map<string, Handler>();
  const sent: unknown[][] = [];
  const notified: string[] = [];
  const api = { on: (name: string, fn: Handler) => handlers.set(name, fn), sendUserMessage: (...args: unknown[]) => sent.push(args) };
  const ctx = {
    cwd: root,
    hasUI: options.hasUI ?? false,
    ui: { notify: (text: string) => notified.push(text) },
    sessionManager: { getSessionId: () => 'pi-session-1', getSessionFile: () => join(root, 'session.jsonl') },
    hasPendingMessages: () => false,
  };
  const module = (await import(pathToFileURL(join(dir, 'index.js')).href)) as { default: (pi: typeof api) => void };
  module.default(api);
  return {
    dir,
    handlers,
    sent,
    notified,
    ctx,
    calls: () =>
      existsSync(join(dir, 'calls.jsonl'))
        ? readFileSync(join(dir, 'calls.jsonl'), 'utf8')
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as { argv: string[]; pid: number; payload: Record<string, unknown> })
        : [],
    answer: (answers) => writeFileSync(join(dir, 'answers.json'), JSON.stringify(answers)),
    fire: async (event, payload) => await handlers.get(event)?.(payload, ctx),
  };
}

function stderrLines(): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n').filter((l) => l !== ''));
    return true;
  });
  return lines;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the Pi extension: context hooks', () => {
  it('tool_result: runs `post-tool pi`, appends its context to the tool result and shows its user line; the payload is what readPiContextPayload reads', async () => {
    const ext = await load();
    const stderr = stderrLines();
    ext.answer({ 'post-tool': { stdout: JSON.stringify({ additionalContext: 'Context at 72%.', systemMessage: 'agent-checkpoint: handoff written.' }) } });
    const result = await ext.fire('tool_result', { type: 'tool_result', toolName: 'bash', toolCallId: 'toolu_1', input: {}, content: [{ type: 'text', text: 'ok\n' }], isError: false });
    expect(result).toEqual({ content: [{ type: 'text', text: 'ok\n' }, { type: 'text', text: 'Context at 72%.' }] });
    expect(stderr).toEqual(['agent-checkpoint: handoff written.']);
    const [call] = ext.calls();
    expect(call?.argv).toEqual(['post-tool']);
    expect(call?.payload).toEqual({ hook_event_name: 'tool_result', session_id: 'pi-session-1', transcript_path: join(String(ext.ctx['cwd']), 'session.jsonl'), cwd: ext.ctx['cwd'], tool_name: 'bash', tool_call_id: 'toolu_1' });
    expect(readPiContextPayload(call?.payload)).toEqual({ event: { eventName: 'tool_result', sessionId: 'pi-session-1', transcriptPath: join(String(ext.ctx['cwd']), 'session.jsonl'), cwd: ext.ctx['cwd'] } });
    // Nothing to say: Pi keeps the result as it is.
    ext.answer({});
    expect(await ext.fire('tool_result', { type: 'tool_result', toolName: 'read', toolCallId: 'toolu_2', content: [], isError: true })).toBeUndefined();
    // An install without --with-context lists the turn end only: the tool call runs nothing.
    writeFileSync(join(ext.dir, 'hook.json'), JSON.stringify({ hooks: { turn_end: (hookJson(() => '') as { hooks: Record<string, unknown> }).hooks['turn_end'] } }));
    expect(await ext.fire('tool_result', { type: 'tool_result', toolName: 'bash', toolCallId: 'toolu_3', content: [] })).toBeUndefined();
    expect(ext.calls()).toHaveLength(2);
    expect(stderr).toEqual(['agent-checkpoint: handoff written.']);
  });

  it('with a UI the user line is a Pi notification, not stderr', async () => {
    const ext = await load({ hasUI: true });
    const stderr = stderrLines();
    ext.answer({ 'post-tool': { stdout: JSON.stringify({ systemMessage: 'agent-checkpoint: context at 86% (L2).' }) } });
    expect(await ext.fire('tool_result', { toolName: 'bash', toolCallId: 't', content: [] })).toBeUndefined();
    expect(ext.notified).toEqual(['agent-checkpoint: context at 86% (L2).']);
    expect(stderr).toEqual([]);
  });

  it("session_start's handoff and before_agent_start's estimate reach the model as one message with the next prompt; the handoff once", async () => {
    const ext = await load();
    ext.answer({ 'session-start': { stdout: JSON.stringify({ additionalContext: 'The previous session ended with a context checkpoint.' }) }, 'prompt-submit': { stdout: JSON.stringify({ additionalContext: '[agent-checkpoint] This task is estimated at 70 %.' }) } });
    expect(await ext.fire('session_start', { type: 'session_start', reason: 'startup' })).toBeUndefined();
    const first = await ext.fire('before_agent_start', { type: 'before_agent_start', prompt: 'Work through PLAN.md.', systemPrompt: 'x' });
    expect(first).toEqual({ message: { customType: 'agent-checkpoint', content: 'The previous session ended with a context checkpoint.\n\n[agent-checkpoint] This task is estimated at 70 %.', display: true } });
    ext.answer({});
    expect(await ext.fire('before_agent_start', { type: 'before_agent_start', prompt: 'Thanks.' })).toBeUndefined();
    const payloads = ext.calls().map((c) => c.payload);
    expect(payloads.map((p) => [p['hook_event_name'], p['source'], p['prompt']])).toEqual([
      ['session_start', 'startup', undefined],
      ['before_agent_start', undefined, 'Work through PLAN.md.'],
      ['before_agent_start', undefined, 'Thanks.'],
    ]);
    expect(payloads.map((p) => readPiContextPayload(p))).toEqual([
      { event: expect.objectContaining({ eventName: 'session_start', source: 'startup' }) },
      { event: expect.objectContaining({ eventName: 'before_agent_start', prompt: 'Work through PLAN.md.' }) },
      { event: expect.objectContaining({ eventName: 'before_agent_start', prompt: 'Thanks.' }) },
    ]);
  });

  it('without a configuration file that could turn context checkpoints on, the per-call hooks start no process (as the plugins\' sh launcher); the session hooks still run', async () => {
    const ext = await load({ configFile: false });
    ext.answer({ 'post-tool': { stdout: JSON.stringify({ additionalContext: 'x' }) }, 'prompt-submit': { stdout: JSON.stringify({ additionalContext: 'y' }) } });
    expect(await ext.fire('tool_result', { toolName: 'bash', content: [] })).toBeUndefined();
    expect(await ext.fire('before_agent_start', { prompt: 'Hi.' })).toBeUndefined();
    expect(ext.calls()).toEqual([]);
    await ext.fire('session_start', { reason: 'startup' });
    expect(ext.calls().map((c) => c.argv)).toEqual([['session-start']]);
    // The user's file, a project file in a parent below the repository root, or $AGENT_CHECKPOINT_CONFIG: the hook runs.
    const cwd = String(ext.ctx['cwd']);
    mkdirSync(join(cwd, 'config', 'agent-checkpoint'), { recursive: true });
    writeFileSync(join(cwd, 'config', 'agent-checkpoint', 'config.json'), '{}');
    expect(await ext.fire('tool_result', { toolName: 'bash', content: [] })).toEqual({ content: [{ type: 'text', text: 'x' }] });
    rmSync(join(cwd, 'config'), { recursive: true });
    const sub = join(cwd, 'pkg', 'src');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(cwd, 'pkg', '.agent-checkpoint.json'), '{}');
    ext.ctx['cwd'] = sub;
    expect(await ext.fire('before_agent_start', { prompt: 'Hi.' })).toMatchObject({ message: { content: 'y' } });
    rmSync(join(cwd, 'pkg', '.agent-checkpoint.json'));
    expect(await ext.fire('before_agent_start', { prompt: 'Hi.' })).toBeUndefined();
    vi.stubEnv('AGENT_CHECKPOINT_CONFIG', join(cwd, 'anywhere.json'));
    expect(await ext.fire('before_agent_start', { prompt: 'Hi.' })).toMatchObject({ message: { content: 'y' } });
    expect(ext.calls().map((c) => c.argv)).toEqual([['session-start'], ['post-tool'], ['prompt-submit'], ['prompt-submit']]);
  });

  it("the events it skips without a configuration file are those whose modes the mode table skips (the sh launcher's list)", () => {
    const source = readFileSync(SHIPPED, 'utf8');
    const listed = /^const SKIP_WITHOUT_CONFIG_FILE = new Set\((\[[^\]]*\])\);$/m.exec(source)?.[1];
    expect(listed, 'index.js has its SKIP_WITHOUT_CONFIG_FILE set').toBeDefined();
    const events = JSON.parse((listed ?? '[]').replaceAll("'", '"')) as string[];
    const modes = events.map((event) => AGENT_PROFILES.pi.hookEntries.find((entry) => entry.event === event)?.args[0]).sort();
    expect(modes).toEqual(HOOK_MODE_TABLE.filter((entry) => entry.withoutConfigFile === 'skip').map((entry) => entry.name).sort());
  });

  it('session_before_compact runs `pre-compact pi` and never cancels the compaction, whatever the hook prints', async () => {
    const ext = await load();
    ext.answer({ 'pre-compact': { stdout: JSON.stringify({ cancel: true }) } });
    expect(await ext.fire('session_before_compact', { type: 'session_before_compact', preparation: {}, branchEntries: [] })).toBeUndefined();
    expect(ext.calls().map((c) => [c.argv, c.payload['hook_event_name']])).toEqual([[['pre-compact'], 'session_before_compact']]);
    expect(readPiContextPayload(ext.calls()[0]?.payload)).toMatchObject({ event: { eventName: 'session_before_compact' } });
  });
});

describe('the Pi extension: a hook can never break Pi', () => {
  it('runs the command without a shell: a path with spaces and quotes works; shell syntax is refused, not run', async () => {
    const ext = await load({ dirName: "it's a dir" });
    const stderr = stderrLines();
    ext.answer({ 'post-tool': { stdout: JSON.stringify({ additionalContext: 'ran' }) } });
    expect(await ext.fire('tool_result', { toolName: 'bash', content: [] })).toEqual({ content: [{ type: 'text', text: 'ran' }] });
    expect(ext.calls().map((c) => c.argv)).toEqual([['post-tool']]);
    // The turn end too (synchronously, see the extension's header): its block is one follow-up.
    ext.answer({ pi: { stdout: JSON.stringify({ decision: 'block', reason: 'Run the tests.' }) } });
    const stop = { message: { role: 'assistant', stopReason: 'stop', content: [{ type: 'text', text: 'Done.' }] } };
    ext.handlers.get('turn_end')?.(stop, ext.ctx);
    expect(ext.sent).toEqual([['Run the tests.', { deliverAs: 'followUp' }]]);
    expect(ext.calls()[1]?.payload).toMatchObject({ hook_event_name: 'turn_end', session_id: 'pi-session-1', stop_hook_active: false, last_assistant_message: 'Done.' });

    const marker = join(ext.dir, 'shell-ran');
    const script = join(ext.dir, 'hook.mjs');
    writeFileSync(join(ext.dir, 'hook.json'), JSON.stringify(hookJson((mode) => `${shellCommand([process.execPath, script, mode])} $(touch ${shellCommand([marker])})`)));
    expect(await ext.fire('tool_result', { toolName: 'bash', content: [] })).toBeUndefined();
    ext.handlers.get('turn_end')?.({ message: { ...stop.message, content: [{ type: 'text', text: 'Done again.' }] } }, ext.ctx);
    expect(existsSync(marker)).toBe(false);
    expect(ext.calls()).toHaveLength(2);
    expect(ext.sent).toHaveLength(1);
    expect(stderr).toEqual([
      expect.stringMatching(/^agent-checkpoint: the tool_result command in .*hook\.json is not a plain command line \(no shell runs it\): /),
      expect.stringMatching(/^agent-checkpoint: the turn_end command in .*hook\.json is not a plain command line \(no shell runs it\): /),
    ]);
  });

  it('a hook past its timeout is killed and Pi goes on without its answer, with one stderr line', async () => {
    const ext = await load({ hooks: (script) => hookJson((mode) => shellCommand([process.execPath, script, mode]), 1) });
    const stderr = stderrLines();
    ext.answer({ 'prompt-submit': { stdout: JSON.stringify({ additionalContext: 'late' }), sleepMs: 20_000 } });
    const started = Date.now();
    expect(await ext.fire('before_agent_start', { prompt: 'Hi.' })).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(10_000);
    const [call] = ext.calls();
    expect(call).toBeDefined();
    expect(alive(call?.pid ?? 0)).toBe(false);
    expect(stderr).toEqual(['agent-checkpoint: the before_agent_start hook did not answer (no answer within 1000 ms); going on without it']);
  });

  it('a failing hook, an answer that is not JSON, a missing program and an unreadable hook.json are one stderr line each, never a throw', async () => {
    const ext = await load();
    const stderr = stderrLines();
    ext.answer({ 'post-tool': { stdout: 'oops', exit: 3 }, 'prompt-submit': { stdout: 'not json' } });
    expect(await ext.fire('tool_result', { toolName: 'bash', content: [] })).toBeUndefined();
    expect(await ext.fire('before_agent_start', { prompt: 'Hi.' })).toBeUndefined();
    writeFileSync(join(ext.dir, 'hook.json'), JSON.stringify(hookJson(() => shellCommand([join(ext.dir, 'no-such-program')]))));
    expect(await ext.fire('session_start', { reason: 'startup' })).toBeUndefined();
    writeFileSync(join(ext.dir, 'hook.json'), '{not json');
    expect(await ext.fire('session_before_compact', {})).toBeUndefined();
    expect(() => ext.handlers.get('turn_end')?.({ message: { role: 'assistant', stopReason: 'stop', content: [{ type: 'text', text: 'Done.' }] } }, ext.ctx)).not.toThrow();
    expect(stderr).toEqual([
      'agent-checkpoint: the tool_result hook did not answer (exit 3); going on without it',
      'agent-checkpoint: the before_agent_start hook answered with something that is not a JSON object; ignored',
      expect.stringMatching(/^agent-checkpoint: the session_start hook did not answer \(spawn .*no-such-program ENOENT\); going on without it$/),
      expect.stringMatching(/^agent-checkpoint: cannot read .*hook\.json: /),
      expect.stringMatching(/^agent-checkpoint: cannot read .*hook\.json: /),
    ]);
    expect(ext.sent).toEqual([]);
  });
});
