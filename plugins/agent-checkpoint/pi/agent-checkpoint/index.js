// agent-checkpoint for Pi (@mariozechner/pi-coding-agent 0.73): at the end of an agent turn, run the
// checkpoint hook; when it blocks, send its reason to the agent as one follow-up user message, and
// show its notice for the user (`systemMessage`), if any, in Pi's UI.
//
// Installed by `agent-checkpoint-hook install --agent pi` as ~/.pi/agent/extensions/agent-checkpoint/
// (or <repo>/.pi/extensions/agent-checkpoint/): this file and hook.json, which lists the hook in the
// settings shape the other agents use: {"hooks":{"turn_end":[{"hooks":[{"type":"command",
// "command":"<shell command>","timeout":<seconds>}]}]}}. Uninstall removes our handler (and both
// files when install created them). Plain JavaScript with no import from Pi.
//
// Why `turn_end` and synchronous: Pi's agent loop polls its follow-up queue right after the last
// turn's `turn_end`, while extension handlers run from a queue the loop does not wait for. A handler
// that awaits anything before `sendUserMessage(…, {deliverAs: "followUp"})` loses that race: the
// message stays queued after the run (in `pi -p` the session is already shut down at `agent_end`).
// So the hook runs with spawnSync and the follow-up is queued before the handler yields; `agent_end`
// says so on stderr if it still was not taken.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Pi has no cap of its own on follow-ups: at most this many consecutive blocks per user prompt. */
const MAX_CONSECUTIVE_BLOCKS = 8;
const DEFAULT_TIMEOUT_SECONDS = 60;
const MAX_OUTPUT_BYTES = 1024 * 1024;

/** The first `turn_end` command handler of hook.json, or `{error}`, or undefined when none is listed. */
function readHook() {
  const file = join(dirname(fileURLToPath(import.meta.url)), 'hook.json');
  let settings;
  try {
    settings = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { error: `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}` };
  }
  const groups = Array.isArray(settings?.hooks?.turn_end) ? settings.hooks.turn_end : [];
  for (const group of groups) {
    for (const handler of Array.isArray(group?.hooks) ? group.hooks : []) {
      if (handler?.type !== 'command' || typeof handler.command !== 'string' || handler.command.trim() === '') continue;
      const seconds = typeof handler.timeout === 'number' && handler.timeout > 0 ? handler.timeout : DEFAULT_TIMEOUT_SECONDS;
      return { command: handler.command, timeoutMs: Math.round(seconds * 1000) };
    }
  }
  return undefined;
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

function warn(line) {
  process.stderr.write(`agent-checkpoint: ${line}\n`);
}

/**
 * The hook's answer: `reason` when it blocks (`{"decision":"block","reason":…}`), `notice` when it has
 * something for the user (`systemMessage`, already one line without control characters); both
 * undefined for a pass.
 */
function readAnswer(stdout) {
  const text = stdout.trim();
  if (text === '') return {};
  let answer;
  try {
    answer = JSON.parse(text);
  } catch {
    warn('the hook answered with something that is not JSON; the turn ends');
    return {};
  }
  const reason = answer?.decision === 'block' && typeof answer.reason === 'string' && answer.reason.trim() !== '' ? answer.reason : undefined;
  const notice = typeof answer?.systemMessage === 'string' && answer.systemMessage.trim() !== '' ? answer.systemMessage : undefined;
  return { reason, notice };
}

/** A notice for the user, never the model: Pi's notification in its UI, stderr without one (`pi -p`). */
function showNotice(notice, ctx) {
  if (ctx.hasUI) ctx.ui.notify(notice, 'warning');
  else process.stderr.write(`${notice}\n`);
}

export default function agentCheckpoint(pi) {
  let lastPrompt;
  let consecutiveBlocks = 0;
  let pendingReason;

  pi.on('input', (event) => {
    // A prompt from the user (or an RPC client) starts a new count; our own follow-ups do not.
    if (event?.source !== 'extension') {
      lastPrompt = typeof event?.text === 'string' ? event.text : undefined;
      consecutiveBlocks = 0;
    }
  });

  pi.on('message_start', (event) => {
    if (pendingReason !== undefined && event?.message?.role === 'user' && textOf(event.message) === pendingReason) pendingReason = undefined;
  });

  // Synchronous on purpose (see the header): no await before the follow-up is queued.
  pi.on('turn_end', (event, ctx) => {
    const message = event?.message;
    if (message?.role !== 'assistant' || message.stopReason !== 'stop') return;
    if (Array.isArray(message.content) && message.content.some((block) => block?.type === 'toolCall')) return;
    // Something is queued already (the user typed during the turn): the agent goes on anyway.
    if (ctx.hasPendingMessages()) return;
    const hook = readHook();
    if (hook === undefined) return;
    if (hook.error !== undefined) {
      warn(hook.error);
      return;
    }
    const payload = {
      hook_event_name: 'turn_end',
      session_id: ctx.sessionManager.getSessionId(),
      transcript_path: ctx.sessionManager.getSessionFile() ?? null,
      cwd: ctx.cwd,
      ...(lastPrompt !== undefined ? { prompt: lastPrompt } : {}),
      last_assistant_message: textOf(message),
      stop_hook_active: consecutiveBlocks > 0,
      consecutive_blocks: consecutiveBlocks,
    };
    // A shell command line, as Claude Code and Codex CLI run theirs.
    const shell = process.platform === 'win32' ? { file: process.env.ComSpec ?? 'cmd.exe', args: ['/d', '/s', '/c', hook.command] } : { file: '/bin/sh', args: ['-c', hook.command] };
    const run = spawnSync(shell.file, shell.args, {
      input: JSON.stringify(payload),
      cwd: ctx.cwd,
      encoding: 'utf8',
      timeout: hook.timeoutMs,
      maxBuffer: MAX_OUTPUT_BYTES,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (run.stderr) process.stderr.write(run.stderr);
    if (run.error !== undefined || run.status !== 0) {
      warn(`the hook did not answer (${run.error?.message ?? `exit ${run.status ?? run.signal}`}); the turn ends`);
      return;
    }
    const { reason, notice } = readAnswer(run.stdout ?? '');
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
      warn(`the follow-up could not be sent: ${error instanceof Error ? error.message : String(error)}`);
    }
  });

  pi.on('agent_end', () => {
    if (pendingReason === undefined) return;
    pendingReason = undefined;
    warn('the checkpoint follow-up missed the end of the run; Pi delivers it with the next prompt');
  });
}
