import { readFileSync } from 'node:fs';
import { asArray, asRecord, stringField, xmlUnescape } from '../mock/json-access.ts';
import { CHECKPOINT_PREFIX } from './checkpoint-project.ts';
import type { CheckpointRoute } from './checkpoint-route.ts';

/** The checkpoint as one model request carried it. */
export interface DeliveredCheckpoint {
  /** The text as it appears in the request, in the agent's own wrapping. */
  readonly raw: string;
  /** The text with that wrapping (and only that) removed: what our tool delivered. */
  readonly text: string;
}

const CLAUDE_FEEDBACK = 'Stop hook feedback:\n';
const CODEX_HOOK_PROMPT = /^<hook_prompt hook_run_id="stop:\d+:[^"]*">([\s\S]*)<\/hook_prompt>$/;

/**
 * Finds our checkpoint in a model request body, in the wrapping each route gives it (per
 * /work/shared/agents, recorded in fixtures/):
 * - Claude `Stop`: a user message (string or text block) `Stop hook feedback:\n<reason>`;
 * - Gemini `AfterAgent`: the last content, a user turn with exactly one text part `<reason>`;
 * - Codex `Stop`: a user message `<hook_prompt hook_run_id="stop:…">…</hook_prompt>`, XML-escaped;
 * - Codex TUI + notify: a plain user message, exactly what was typed;
 * - Copilot `agentStop`: a user message `<current_datetime>…</current_datetime>\n\n<reason>`;
 * - Qwen `Stop`: a chat-completions user message whose text part is `<reason>` as is;
 * - Pi (our extension's follow-up): an Anthropic user message whose one text block is `<reason>` as is.
 * Returns the last match (the checkpoint of the turn that just ended), or undefined.
 */
export function findDeliveredCheckpoint(route: CheckpointRoute, body: unknown): DeliveredCheckpoint | undefined {
  const texts = userTexts(route, body);
  for (const raw of texts.reverse()) {
    const text = unwrap(route, raw);
    if (text?.startsWith(CHECKPOINT_PREFIX)) return { raw, text };
  }
  return undefined;
}

function unwrap(route: CheckpointRoute, raw: string): string | undefined {
  switch (route) {
    case 'claude-hook':
      return raw.startsWith(CLAUDE_FEEDBACK) ? raw.slice(CLAUDE_FEEDBACK.length) : undefined;
    case 'gemini-hook':
    case 'codex-queue':
    case 'codex-tmux':
    case 'qwen-hook':
    case 'pi-hook':
      return raw;
    case 'codex-hook': {
      const inner = CODEX_HOOK_PROMPT.exec(raw)?.[1];
      return inner === undefined ? undefined : xmlUnescape(inner);
    }
    case 'copilot-hook':
      return COPILOT_DATETIME.exec(raw)?.[1];
  }
}

/** Copilot CLI 1.0.102 puts the time in front of every user message it sends, the queued block reason too. */
const COPILOT_DATETIME = /^<current_datetime>[^<]*<\/current_datetime>\n\n([\s\S]*)$/;

/** Every user-side text of the request, in order (Gemini: only the last content, see above). */
function userTexts(route: CheckpointRoute, body: unknown): string[] {
  const record = asRecord(body);
  switch (route) {
    case 'copilot-hook':
    case 'claude-hook':
    case 'pi-hook':
      return asArray(record?.['messages'])
        .filter((m) => stringField(m, 'role') === 'user')
        .flatMap((m) => {
          const content = asRecord(m)?.['content'];
          if (typeof content === 'string') return [content];
          return asArray(content).flatMap((block) => (stringField(block, 'type') === 'text' ? [stringField(block, 'text') ?? ''] : []));
        });
    case 'gemini-hook': {
      const last = asArray(record?.['contents']).at(-1);
      const parts = asArray(asRecord(last)?.['parts']);
      const text = parts.length === 1 ? stringField(parts[0], 'text') : undefined;
      return stringField(last, 'role') === 'user' && text !== undefined ? [text] : [];
    }
    case 'qwen-hook':
      return asArray(record?.['messages'])
        .filter((m) => stringField(m, 'role') === 'user')
        .flatMap((m) => {
          const content = asRecord(m)?.['content'];
          if (typeof content === 'string') return [content];
          return asArray(content).flatMap((part) => (stringField(part, 'type') === 'text' ? [stringField(part, 'text') ?? ''] : []));
        });
    case 'codex-hook':
    case 'codex-queue':
    case 'codex-tmux':
      return asArray(record?.['input'])
        .filter((item) => stringField(item, 'type') === 'message' && stringField(item, 'role') === 'user')
        .flatMap((item) => asArray(asRecord(item)?.['content']).flatMap((part) => (stringField(part, 'type') === 'input_text' ? [stringField(part, 'text') ?? ''] : [])));
  }
}

/**
 * The raw texts of Codex's `HookPrompt` items in a rollout (`item_completed` events): what the Stop
 * hook returned, before Codex escapes it into `<hook_prompt>`.
 */
export function codexHookPromptTexts(rolloutPath: string): string[] {
  const texts: string[] = [];
  for (const line of readFileSync(rolloutPath, 'utf8').split('\n')) {
    if (!line.includes('"HookPrompt"')) continue;
    try {
      const item = asRecord(asRecord(asRecord(JSON.parse(line))?.['payload'])?.['item']);
      if (stringField(item, 'type') !== 'HookPrompt') continue;
      for (const fragment of asArray(item?.['fragments'])) {
        const text = stringField(fragment, 'text');
        if (text !== undefined) texts.push(text);
      }
    } catch {
      // a torn last line
    }
  }
  return texts;
}
