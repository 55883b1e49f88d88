import { asArray, asRecord, asString, stringField } from './json-access.ts';
import { countRuns, type ConversationView } from './select-step.ts';

/** What the mock reads from a Claude Code `POST /v1/messages` body. */
export interface AnthropicRequestInfo {
  readonly view: ConversationView;
  readonly model: string;
  readonly stream: boolean;
  /** Requests without tools (title generation and the like) are answered with text, no step. */
  readonly isSideRequest: boolean;
  readonly toolNames: readonly string[];
  /** From the environment text Claude sends ("Primary working directory: …"), if present. */
  readonly workspaceRoot: string | undefined;
}

const STOP_FEEDBACK = 'Stop hook feedback:\n';

/**
 * Assistant messages Claude Code writes itself, not the model: after an interrupted tool call a
 * resumed session carries `"No response requested."` as an assistant turn. They are not answers
 * of the script, so they do not advance the step.
 */
const SYNTHETIC_ASSISTANT_TEXTS = new Set(['No response requested.']);

function isModelMessage(message: unknown): boolean {
  if (stringField(message, 'role') !== 'assistant') return false;
  const content = asRecord(message)?.['content'];
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : asArray(content);
  const synthetic =
    blocks.length > 0 &&
    blocks.every((block) => stringField(block, 'type') === 'text' && SYNTHETIC_ASSISTANT_TEXTS.has(stringField(block, 'text') ?? ''));
  return !synthetic;
}
const ADDITIONAL_CONTEXT = /^<system-reminder>\nStop hook additional context: ([\s\S]*)\n<\/system-reminder>$/;

export function readAnthropicRequest(body: unknown): AnthropicRequestInfo {
  const record = asRecord(body);
  const messages = asArray(record?.['messages']);
  const tools = asArray(record?.['tools']);
  return {
    view: {
      priorModelTurns: countRuns(messages, isModelMessage),
      lastUserText: lastUserText(messages),
      firstUserText: firstUserText(messages),
    },
    model: stringField(body, 'model') ?? 'claude-mock',
    stream: record?.['stream'] === true,
    isSideRequest: tools.length === 0,
    toolNames: tools.map((t) => stringField(t, 'name') ?? '').filter((n) => n !== ''),
    workspaceRoot: findWorkspaceRoot(record),
  };
}

/** Latest user-side text: the prompt, or a Stop-hook reason with Claude's wrapping removed. */
function lastUserText(messages: readonly unknown[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (stringField(message, 'role') !== 'user') continue;
    const content = asRecord(message)?.['content'];
    const texts =
      typeof content === 'string'
        ? [content]
        : asArray(content)
            .filter((block) => stringField(block, 'type') === 'text')
            .map((block) => stringField(block, 'text') ?? '');
    for (let j = texts.length - 1; j >= 0; j -= 1) {
      const unwrapped = unwrapUserText(texts[j] ?? '');
      if (unwrapped !== undefined) return unwrapped;
    }
  }
  return undefined;
}

/**
 * The last user text of the first user message, context reminders aside: the prompt of the main
 * conversation, or the task a subagent's conversation opens with.
 */
function firstUserText(messages: readonly unknown[]): string | undefined {
  const first = messages.find((m) => stringField(m, 'role') === 'user');
  const content = asRecord(first)?.['content'];
  const texts = typeof content === 'string' ? [content] : asArray(content).map((block) => (stringField(block, 'type') === 'text' ? (stringField(block, 'text') ?? '') : ''));
  return texts.filter((text) => text !== '' && !text.startsWith('<system-reminder>')).at(-1);
}

function unwrapUserText(text: string): string | undefined {
  if (text.startsWith(STOP_FEEDBACK)) {
    // JSON block: "Stop hook feedback:\nR"; exit 2: "Stop hook feedback:\n[<cmd>]: R\n".
    const rest = text.slice(STOP_FEEDBACK.length);
    const exit2 = /^\[[^\n]*\]: ([\s\S]*?)\n?$/.exec(rest);
    return exit2?.[1] ?? rest;
  }
  const context = ADDITIONAL_CONTEXT.exec(text);
  if (context) return context[1];
  // Other reminders are context Claude attaches to the prompt, not user text.
  if (text.startsWith('<system-reminder>')) return undefined;
  return text;
}

function findWorkspaceRoot(record: ReturnType<typeof asRecord>): string | undefined {
  const pattern = /Primary working directory: ([^\n]+)/;
  const texts: string[] = [];
  const collect = (content: unknown): void => {
    if (typeof content === 'string') texts.push(content);
    for (const block of asArray(content)) {
      const text = stringField(block, 'text');
      if (text !== undefined) texts.push(text);
    }
  };
  collect(record?.['system']);
  for (const message of asArray(record?.['messages'])) collect(asRecord(message)?.['content']);
  for (const text of texts) {
    const match = pattern.exec(text);
    if (match?.[1] !== undefined) return asString(match[1].trim());
  }
  return undefined;
}
