import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes a Claude Code 2.1.330 session the way the CLI lays it out: `<dir>/<session>.jsonl` and the
 * subagents' `<dir>/<session>/subagents/agent-<id>.jsonl`. Every line has the key order and fields of
 * the recorded fixtures (`fixtures/claude/2.1.330/subagent-*`), so the reader's pre-filters see what
 * they see on real files. Times are explicit (ISO) so tests control the interleaving.
 */
export class ClaudeSessionWriter {
  readonly dir: string;
  readonly sessionId: string;
  readonly cwd: string;
  readonly transcriptPath: string;
  readonly subagentsDir: string;
  private previous: string | null = null;
  private counter = 0;

  constructor(dir: string, sessionId = 'd0806e70-0b1e-47be-b024-a5a84e3899de', cwd = '/home/user/repo') {
    this.dir = dir;
    this.sessionId = sessionId;
    this.cwd = cwd;
    this.transcriptPath = join(dir, `${sessionId}.jsonl`);
    this.subagentsDir = join(dir, sessionId, 'subagents');
    writeFileSync(this.transcriptPath, '');
  }

  subagentPath(agentId: string): string {
    return join(this.subagentsDir, `agent-${agentId}.jsonl`);
  }

  /** A genuine `-p` prompt opening a turn. */
  prompt(promptId: string, text: string, at: string): this {
    return this.main({ promptId, type: 'user', message: { role: 'user', content: text }, ...this.ids(at), permissionMode: 'acceptEdits', promptSource: 'sdk', turnOrigin: 'sdk' });
  }

  /** A task-notification prompt Claude writes when a background agent finishes. */
  taskNotification(promptId: string, agentId: string, toolUseId: string, at: string): this {
    const text = `<task-notification>\n<task-id>${agentId}</task-id>\n<tool-use-id>${toolUseId}</tool-use-id>\n<status>completed</status>\n</task-notification>`;
    return this.main({ promptId, type: 'user', message: { role: 'user', content: text }, ...this.ids(at), promptSource: 'system', turnOrigin: 'task_notification', origin: { kind: 'task-notification' } });
  }

  /** An assistant entry with one tool_use. */
  toolUse(id: string, name: string, input: Record<string, unknown>, at: string): this {
    return this.main(assistant(id, name, input, at, this.ids(at)));
  }

  /** The user entry with the result of `toolUseId` (and the entry-level `toolUseResult`). */
  toolResult(promptId: string, toolUseId: string, content: string, at: string, extra: { isError?: boolean; toolUseResult?: unknown } = {}): this {
    return this.main(result(promptId, toolUseId, content, at, this.ids(at), extra));
  }

  /** An Agent call and its foreground hand-back result naming `agentId`. */
  agent(promptId: string, callId: string, agentId: string, at: string, resultAt: string): this {
    this.toolUse(callId, 'Agent', { description: 'Do it', prompt: 'SUBAGENT-TASK', subagent_type: 'general-purpose', run_in_background: false }, at);
    return this.toolResult(promptId, callId, '[Subagent hand-back] done', resultAt, {
      toolUseResult: { status: 'completed', prompt: 'SUBAGENT-TASK', agentId, agentType: 'general-purpose', toolsUsed: ['Bash'], content: [{ type: 'text', text: 'done' }] },
    });
  }

  text(text: string, at: string): this {
    return this.main({ type: 'assistant', message: { id: `msg_${++this.counter}`, type: 'message', role: 'assistant', model: 'claude-opus-5-5', content: [{ type: 'text', text }], stop_reason: 'end_turn' }, ...this.ids(at) });
  }

  /** The subagent's own transcript, appended to. */
  subagent(agentId: string): SubagentWriter {
    mkdirSync(this.subagentsDir, { recursive: true });
    return new SubagentWriter(this.subagentPath(agentId), agentId, this.sessionId, this.cwd);
  }

  private ids(at: string): Record<string, unknown> {
    const uuid = `00000000-0000-4000-8000-${String(++this.counter).padStart(12, '0')}`;
    const out = { uuid, timestamp: at, userType: 'external', entrypoint: 'sdk-cli', cwd: this.cwd, sessionId: this.sessionId, version: '2.1.330', gitBranch: 'master' };
    return out;
  }

  private main(entry: Record<string, unknown>): this {
    const line = { parentUuid: this.previous, isSidechain: false, ...entry };
    this.previous = entry['uuid'] as string;
    appendFileSync(this.transcriptPath, `${JSON.stringify(line)}\n`);
    return this;
  }
}

/** Appends to one subagent transcript (`isSidechain:true`, `agentId` on every entry). */
export class SubagentWriter {
  readonly path: string;
  readonly agentId: string;
  readonly sessionId: string;
  readonly cwd: string;
  private previous: string | null = null;
  private counter = 0;

  constructor(path: string, agentId: string, sessionId: string, cwd: string) {
    this.path = path;
    this.agentId = agentId;
    this.sessionId = sessionId;
    this.cwd = cwd;
  }

  prompt(promptId: string, text: string, at: string): this {
    return this.entry({ promptId, agentId: this.agentId, type: 'user', message: { role: 'user', content: text }, ...this.ids(at) });
  }

  /** The bookkeeping the CLI writes around each request (skipped unparsed by the reader). */
  bookkeeping(at: string, bytes = 2000): this {
    appendFileSync(this.path, `${JSON.stringify({ type: 'api-request', sessionId: this.sessionId, agentId: this.agentId, id: `req_${++this.counter}`, timestamp: at, params: 'x'.repeat(bytes) })}\n`);
    const attachment = { parentUuid: this.previous, isSidechain: true, agentId: this.agentId, attachment: { type: 'date', date: '2026-11-22' }, type: 'attachment', ...this.ids(at) };
    appendFileSync(this.path, `${JSON.stringify(attachment)}\n`);
    return this;
  }

  toolUse(id: string, name: string, input: Record<string, unknown>, at: string): this {
    return this.entry({ agentId: this.agentId, ...assistant(id, name, input, at, this.ids(at)) });
  }

  toolResult(promptId: string, toolUseId: string, content: string, at: string, extra: { isError?: boolean; toolUseResult?: unknown } = {}): this {
    return this.entry({ ...result(promptId, toolUseId, content, at, this.ids(at), extra), agentId: this.agentId });
  }

  /** A Bash call and its result (`Exit code N` on failure, as Claude writes it). */
  bash(promptId: string, id: string, command: string, at: string, resultAt: string, exitCode = 0): this {
    this.toolUse(id, 'Bash', { command, description: 'Run' }, at);
    return exitCode === 0
      ? this.toolResult(promptId, id, 'ok', resultAt, { toolUseResult: { stdout: 'ok', stderr: '', interrupted: false } })
      : this.toolResult(promptId, id, `Exit code ${exitCode}\nfailed`, resultAt, { isError: true, toolUseResult: `Error: Exit code ${exitCode}\nfailed` });
  }

  edit(promptId: string, id: string, filePath: string, at: string, resultAt: string): this {
    this.toolUse(id, 'Edit', { file_path: filePath, old_string: 'a', new_string: 'b', replace_all: false }, at);
    return this.toolResult(promptId, id, `The file ${filePath} has been updated successfully.`, resultAt, { toolUseResult: { filePath } });
  }

  private ids(at: string): Record<string, unknown> {
    const uuid = `11111111-0000-4000-8000-${String(++this.counter).padStart(12, '0')}`;
    return { uuid, timestamp: at, userType: 'external', entrypoint: 'sdk-cli', cwd: this.cwd, sessionId: this.sessionId, version: '2.1.330', gitBranch: 'master' };
  }

  private entry(entry: Record<string, unknown>): this {
    const line = { parentUuid: this.previous, isSidechain: true, ...entry };
    this.previous = entry['uuid'] as string;
    appendFileSync(this.path, `${JSON.stringify(line)}\n`);
    return this;
  }
}

function assistant(id: string, name: string, input: Record<string, unknown>, _at: string, ids: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'assistant',
    message: { id: `msg_${id}`, type: 'message', role: 'assistant', model: 'claude-opus-5-5', content: [{ type: 'tool_use', id, name, input }], stop_reason: 'tool_use' },
    ...ids,
  };
}

function result(promptId: string, toolUseId: string, content: string, _at: string, ids: Record<string, unknown>, extra: { isError?: boolean; toolUseResult?: unknown }): Record<string, unknown> {
  return {
    promptId,
    type: 'user',
    message: { role: 'user', content: [{ tool_use_id: toolUseId, type: 'tool_result', content, is_error: extra.isError === true }] },
    ...ids,
    ...(extra.toolUseResult === undefined ? {} : { toolUseResult: extra.toolUseResult }),
  };
}
