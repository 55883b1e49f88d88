// agent-checkpoint for Pi (@mariozechner/pi-coding-agent 0.73): runs the hooks hook.json lists, on
// the Pi events they name, and delivers each answer through Pi's extension API.
//
// Installed by `agent-checkpoint-hook install --agent pi [--with-context]` as
// ~/.pi/agent/extensions/agent-checkpoint/ (or <repo>/.pi/extensions/agent-checkpoint/): this file and
// hook.json, which lists the hooks in the settings shape the other agents use:
// {"hooks":{"turn_end":[{"hooks":[{"type":"command","command":"<node> <bin> pi","timeout":<seconds>}]}],…}}.
// Uninstall removes our handlers (and both files when install created them). Plain JavaScript with
// no import from Pi.
//
// | Pi event                 | hook (`agent-checkpoint-hook …`) | the answer goes to                        |
// | turn_end (last, no tools)| `pi` (the turn end)              | one follow-up user message (a block)      |
// | tool_result              | `post-tool pi` (the monitor)     | appended to the tool's result; user line  |
// | before_agent_start       | `prompt-submit pi`               | a message beside the prompt               |
// | session_start            | `session-start pi`               | that message, with the next prompt        |
// | session_before_compact   | `pre-compact pi`                 | nothing (writes a handoff; never cancels) |
//
// Safety: a hook command is split into words and run without a shell (only the plain words and
// single-quoted words `install` writes are accepted: nothing in it is ever interpreted); every run
// has a timeout and an output cap; no failure of a hook, of hook.json or of our own code reaches Pi —
// each is one stderr line and Pi goes on as if the hook said nothing.
//
// Why `turn_end` is synchronous: Pi's agent loop polls its follow-up queue right after the last
// turn's `turn_end`, while extension handlers run from a queue the loop does not wait for. A handler
// that awaits anything before `sendUserMessage(…, {deliverAs: "followUp"})` loses that race: the
// message stays queued after the run (in `pi -p` the session is already shut down at `agent_end`).
// So that hook runs with spawnSync and the follow-up is queued before the handler yields; `agent_end`
// says so on stderr if it still was not taken. Pi awaits the other events' handlers, so their hooks
// run asynchronously and the TUI stays responsive.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Pi has no cap of its own on follow-ups: at most this many consecutive blocks per user prompt. */
const MAX_CONSECUTIVE_BLOCKS = 8;
const DEFAULT_TIMEOUT_SECONDS = 60;
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** The custom message type of what we add to the model's context (Pi shows it in its UI). */
const MESSAGE_TYPE = 'agent-checkpoint';
/**
 * The events whose hook runs on every tool call or prompt and does nothing unless a configuration
 * file turns context checkpoints on: as the plugins' sh launcher (hooks/run-hook.sh) does for
 * `post-tool` and `prompt-submit`, no process starts while no such file exists: ~0.13 ms per tool call
 * for the stats, against a Node start otherwise (`post-tool pi` with context off: 103–192 ms on a loaded
 * 2-core machine, where `node -e 0` took 82–122 ms).
 */
const SKIP_WITHOUT_CONFIG_FILE = new Set(['tool_result', 'before_agent_start']);

function warn(line) {
  process.stderr.write(`agent-checkpoint: ${line}\n`);
}

function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The words of a command line as `install` writes it (setup-kit's `shellCommand`): plain words and
 * single-quoted words (`'\''` for a quote inside), separated by spaces. Undefined for anything that
 * would need a shell to mean something ($, backquotes, double quotes, redirections, globs…).
 */
export function commandWords(command) {
  const words = [];
  let rest = command.trim();
  while (rest !== '') {
    const word = /^(?:[A-Za-z0-9_/.,:@%+=-]|'[^']*'|\\')+/.exec(rest);
    if (word === null) return undefined;
    words.push(word[0].replace(/'([^']*)'|\\'/g, (_quoted, inner) => inner ?? "'"));
    rest = rest.slice(word[0].length);
    if (rest !== '' && !/^ +/.test(rest)) return undefined;
    rest = rest.trimStart();
  }
  return words.length > 0 ? words : undefined;
}

/**
 * The first command handler hook.json lists for `event`: `{argv, timeoutMs}`, `{error}`, or undefined
 * when none is listed. Read on every event, so an install or uninstall takes effect at once.
 */
function readHook(event) {
  const file = join(dirname(fileURLToPath(import.meta.url)), 'hook.json');
  let settings;
  try {
    settings = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { error: `cannot read ${file}: ${messageOf(error)}` };
  }
  const groups = Array.isArray(settings?.hooks?.[event]) ? settings.hooks[event] : [];
  for (const group of groups) {
    for (const handler of Array.isArray(group?.hooks) ? group.hooks : []) {
      if (handler?.type !== 'command' || typeof handler.command !== 'string' || handler.command.trim() === '') continue;
      const argv = commandWords(handler.command);
      if (argv === undefined) return { error: `the ${event} command in ${file} is not a plain command line (no shell runs it): ${JSON.stringify(handler.command.slice(0, 200))}` };
      const seconds = typeof handler.timeout === 'number' && handler.timeout > 0 ? handler.timeout : DEFAULT_TIMEOUT_SECONDS;
      return { argv, timeoutMs: Math.round(seconds * 1000) };
    }
  }
  return undefined;
}

/** The answer's JSON object, `{}` for empty output, undefined (and one stderr line) for anything else. */
function parseAnswer(stdout, event) {
  const text = (stdout ?? '').trim();
  if (text === '') return {};
  try {
    const answer = JSON.parse(text);
    if (typeof answer === 'object' && answer !== null && !Array.isArray(answer)) return answer;
  } catch {
    // reported below
  }
  warn(`the ${event} hook answered with something that is not a JSON object; ignored`);
  return undefined;
}

function nonEmptyString(value) {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Runs `hook` synchronously (the turn end only, see the header). The parsed answer, or undefined. */
function runHookSync(hook, event, payload, cwd) {
  const [file, ...args] = hook.argv;
  const run = spawnSync(file, args, { input: JSON.stringify(payload), cwd, encoding: 'utf8', timeout: hook.timeoutMs, maxBuffer: MAX_OUTPUT_BYTES, stdio: ['pipe', 'pipe', 'pipe'] });
  if (run.stderr) process.stderr.write(run.stderr);
  if (run.error !== undefined || run.status !== 0) {
    warn(`the ${event} hook did not answer (${run.error?.message ?? `exit ${run.status ?? run.signal}`}); going on without it`);
    return undefined;
  }
  return parseAnswer(run.stdout, event);
}

/** Runs `hook` asynchronously: the parsed answer, or undefined. Never rejects; the child never outlives its timeout. */
function runHook(hook, event, payload, cwd) {
  return new Promise((resolve) => {
    const [file, ...args] = hook.argv;
    let child;
    try {
      child = spawn(file, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      warn(`the ${event} hook could not start (${messageOf(error)}); going on without it`);
      resolve(undefined);
      return;
    }
    const out = [];
    let outBytes = 0;
    let failure;
    const timer = setTimeout(() => {
      failure = `no answer within ${hook.timeoutMs} ms`;
      child.kill('SIGKILL');
    }, hook.timeoutMs);
    child.stdout.on('data', (chunk) => {
      outBytes += chunk.length;
      if (outBytes > MAX_OUTPUT_BYTES) {
        failure = `more than ${MAX_OUTPUT_BYTES} bytes of output`;
        child.kill('SIGKILL');
      } else out.push(chunk);
    });
    child.stderr.on('data', (chunk) => process.stderr.write(chunk));
    child.stdin.on('error', () => {}); // a hook that exits without reading its stdin
    child.on('error', (error) => {
      failure ??= messageOf(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (failure === undefined && code !== 0) failure = `exit ${code ?? signal}`;
      if (failure !== undefined) {
        warn(`the ${event} hook did not answer (${failure}); going on without it`);
        resolve(undefined);
        return;
      }
      resolve(parseAnswer(Buffer.concat(out).toString('utf8'), event));
    });
    child.stdin.end(JSON.stringify(payload));
  });
}

function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Whether a configuration file could turn context checkpoints on for `cwd`: `$AGENT_CHECKPOINT_CONFIG`,
 * the user file, or `.agent-checkpoint.json` in `cwd` or a parent up to the repository root. Only
 * stats (the hook reads the files), as the sh launcher's `[ -f ]` tests.
 */
function mayHaveContextConfig(cwd) {
  if ((process.env.AGENT_CHECKPOINT_CONFIG ?? '') !== '') return true;
  const xdg = process.env.XDG_CONFIG_HOME;
  const configHome = xdg !== undefined && isAbsolute(xdg) ? xdg : join(process.env.HOME ?? '', '.config');
  if (isFile(join(configHome, 'agent-checkpoint', 'config.json'))) return true;
  let start = cwd;
  try {
    start = realpathSync(cwd);
  } catch {
    // the hook says what is wrong with its cwd
    return true;
  }
  for (let dir = start; ; dir = dirname(dir)) {
    if (isFile(join(dir, '.agent-checkpoint.json'))) return true;
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) return false;
  }
}

/** Runs the hook hook.json lists for `event`, if any: its answer object, or undefined. Never rejects. */
async function answerOf(event, payload, ctx) {
  try {
    if (SKIP_WITHOUT_CONFIG_FILE.has(event) && !mayHaveContextConfig(ctx.cwd)) return undefined;
    const hook = readHook(event);
    if (hook === undefined) return undefined;
    if (hook.error !== undefined) {
      warn(hook.error);
      return undefined;
    }
    return await runHook(hook, event, payload, ctx.cwd);
  } catch (error) {
    warn(`the ${event} hook failed: ${messageOf(error)}`);
    return undefined;
  }
}

function textOf(message) {
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((block) => block?.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('\n');
}

/** A notice for the user, never the model: Pi's notification in its UI, stderr without one (`pi -p`). */
function showNotice(notice, ctx) {
  if (ctx.hasUI) ctx.ui.notify(notice, 'warning');
  else process.stderr.write(`${notice}\n`);
}

/** What every payload names: the event, the session, its JSONL file (may not exist yet) and the cwd. */
function basePayload(event, ctx) {
  return {
    hook_event_name: event,
    session_id: ctx.sessionManager.getSessionId(),
    transcript_path: ctx.sessionManager.getSessionFile() ?? null,
    cwd: ctx.cwd,
  };
}

export default function agentCheckpoint(pi) {
  let lastPrompt;
  let consecutiveBlocks = 0;
  let pendingReason;
  /** The session-start hook's context, delivered with the next prompt (session_start has no answer of its own). */
  let sessionContext;

  pi.on('session_start', async (event, ctx) => {
    const payload = { ...basePayload('session_start', ctx), ...(typeof event?.reason === 'string' ? { source: event.reason } : {}) };
    sessionContext = nonEmptyString((await answerOf('session_start', payload, ctx))?.additionalContext);
  });

  pi.on('input', (event) => {
    // A prompt from the user (or an RPC client) starts a new count; our own follow-ups do not.
    if (event?.source !== 'extension') {
      lastPrompt = typeof event?.text === 'string' ? event.text : undefined;
      consecutiveBlocks = 0;
    }
  });

  // After the prompt is submitted, before the model sees it: the task estimate, and the session
  // start's handoff. Pi sends the returned message to the model with the prompt (and keeps it in
  // the session, so it is sent once and stays in the history).
  pi.on('before_agent_start', async (event, ctx) => {
    const payload = { ...basePayload('before_agent_start', ctx), ...(typeof event?.prompt === 'string' ? { prompt: event.prompt } : {}) };
    const estimate = nonEmptyString((await answerOf('before_agent_start', payload, ctx))?.additionalContext);
    const texts = [sessionContext, estimate].filter((text) => text !== undefined);
    sessionContext = undefined;
    if (texts.length === 0) return undefined;
    return { message: { customType: MESSAGE_TYPE, content: texts.join('\n\n'), display: true } };
  });

  // Registered so that Pi, before running a tool, finishes writing the assistant message that asked
  // for it (0.73.1 awaits its event queue only when a tool_call handler exists): the monitor after
  // the call then reads that message's usage from the session file.
  pi.on('tool_call', () => undefined);

  // The monitor after every tool call: its context is appended to the tool's result (the model reads
  // it with that result, once); its user line is a notice.
  pi.on('tool_result', async (event, ctx) => {
    const payload = {
      ...basePayload('tool_result', ctx),
      ...(typeof event?.toolName === 'string' ? { tool_name: event.toolName } : {}),
      ...(typeof event?.toolCallId === 'string' ? { tool_call_id: event.toolCallId } : {}),
    };
    const answer = await answerOf('tool_result', payload, ctx);
    const notice = nonEmptyString(answer?.systemMessage);
    if (notice !== undefined) showNotice(notice, ctx);
    const context = nonEmptyString(answer?.additionalContext);
    if (context === undefined) return undefined;
    const content = Array.isArray(event?.content) ? event.content : [];
    return { content: [...content, { type: 'text', text: context }] };
  });

  // Before a compaction (`/compact` or Pi's own): the hook writes a handoff. Never cancels it.
  pi.on('session_before_compact', async (_event, ctx) => {
    await answerOf('session_before_compact', basePayload('session_before_compact', ctx), ctx);
    return undefined;
  });

  pi.on('message_start', (event) => {
    if (pendingReason !== undefined && event?.message?.role === 'user' && textOf(event.message) === pendingReason) pendingReason = undefined;
  });

  // Synchronous on purpose (see the header): no await before the follow-up is queued.
  pi.on('turn_end', (event, ctx) => {
    try {
      turnEnd(event, ctx);
    } catch (error) {
      warn(`the turn_end hook failed: ${messageOf(error)}`);
    }
  });

  function turnEnd(event, ctx) {
    const message = event?.message;
    if (message?.role !== 'assistant' || message.stopReason !== 'stop') return;
    if (Array.isArray(message.content) && message.content.some((block) => block?.type === 'toolCall')) return;
    // Something is queued already (the user typed during the turn): the agent goes on anyway.
    if (ctx.hasPendingMessages()) return;
    const hook = readHook('turn_end');
    if (hook === undefined) return;
    if (hook.error !== undefined) {
      warn(hook.error);
      return;
    }
    const payload = {
      ...basePayload('turn_end', ctx),
      ...(lastPrompt !== undefined ? { prompt: lastPrompt } : {}),
      last_assistant_message: textOf(message),
      stop_hook_active: consecutiveBlocks > 0,
      consecutive_blocks: consecutiveBlocks,
    };
    const answer = runHookSync(hook, 'turn_end', payload, ctx.cwd);
    if (answer === undefined) return;
    const reason = answer.decision === 'block' ? nonEmptyString(answer.reason) : undefined;
    const notice = nonEmptyString(answer.systemMessage);
    if (notice !== undefined) showNotice(notice, ctx);
    if (reason === undefined) {
      consecutiveBlocks = 0;
      return;
    }
    if (consecutiveBlocks >= MAX_CONSECUTIVE_BLOCKS) {
      warn(`${MAX_CONSECUTIVE_BLOCKS} checkpoints in a row without a new prompt; letting the turn end`);
      return;
    }
    consecutiveBlocks += 1;
    pendingReason = reason;
    try {
      // Pi reports a failure of the send itself (it returns nothing to await).
      pi.sendUserMessage(reason, { deliverAs: 'followUp' });
    } catch (error) {
      pendingReason = undefined;
      warn(`the follow-up could not be sent: ${messageOf(error)}`);
    }
  }

  pi.on('agent_end', () => {
    if (pendingReason === undefined) return;
    pendingReason = undefined;
    warn('the checkpoint follow-up missed the end of the run; Pi delivers it with the next prompt');
  });
}
