import { asArray, asRecord, asString, stringField } from './json-access.ts';
import { countRuns, type ConversationView } from './select-step.ts';

/** What the mock reads from an OpenAI chat-completions body (GitHub Copilot CLI's `COPILOT_PROVIDER_BASE_URL`). */
export interface ChatRequestInfo {
  readonly view: ConversationView;
  readonly model: string;
  readonly stream: boolean;
  /** Whether the caller asked for a usage chunk at the end of the stream (`stream_options.include_usage`). */
  readonly includeUsage: boolean;
  /** Function tool names. */
  readonly toolNames: readonly string[];
}

export function readChatRequest(body: unknown): ChatRequestInfo {
  const record = asRecord(body);
  const messages = asArray(record?.['messages']);
  return {
    view: {
      // One model response is one assistant message (its text and its tool calls together).
      priorModelTurns: countRuns(messages, (m) => stringField(m, 'role') === 'assistant'),
      lastUserText: lastUserText(messages),
      firstUserText: firstUserText(messages),
    },
    model: stringField(body, 'model') ?? 'gpt-mock',
    stream: record?.['stream'] === true,
    includeUsage: asRecord(record?.['stream_options'])?.['include_usage'] === true,
    toolNames: asArray(record?.['tools']).map((tool) => stringField(asRecord(tool)?.['function'], 'name') ?? '').filter((n) => n !== ''),
  };
}

/** The texts of one message: a string `content`, or its `text` parts. */
function texts(message: unknown): string[] {
  const content = asRecord(message)?.['content'];
  const direct = asString(content);
  if (direct !== undefined) return [direct];
  return asArray(content)
    .map((part) => stringField(part, 'text'))
    .filter((text): text is string => text !== undefined);
}

/**
 * Copilot CLI (and Qwen Code, `<system-reminder>`) wrap what the user side says in context tags (`<current_datetime>`, `<reminder>`…)
 * around the text itself; the text is what sits outside every tag.
 */
function unwrap(text: string): string {
  return text.replace(/<([a-z_-]+)>[\s\S]*?<\/\1>/g, '').trim();
}

function lastUserText(messages: readonly unknown[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (stringField(message, 'role') !== 'user') continue;
    const text = texts(message).map(unwrap).filter((t) => t !== '').at(-1);
    if (text !== undefined) return text;
  }
  return undefined;
}

function firstUserText(messages: readonly unknown[]): string | undefined {
  for (const message of messages) {
    if (stringField(message, 'role') !== 'user') continue;
    const text = texts(message).map(unwrap).find((t) => t !== '');
    if (text !== undefined) return text;
  }
  return undefined;
}
