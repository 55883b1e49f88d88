import { asArray, asRecord, stringField } from './json-access.ts';
import { countRuns, type ConversationView } from './select-step.ts';

/** What the mock reads from a Gemini CLI `…:streamGenerateContent` / `…:generateContent` body. */
export interface GeminiRequestInfo {
  readonly view: ConversationView;
  readonly toolNames: readonly string[];
  /** JSON schema requested for a structured side answer (loop check, router), if any. */
  readonly responseSchema: unknown;
}

export function readGeminiRequest(body: unknown): GeminiRequestInfo {
  const record = asRecord(body);
  const contents = asArray(record?.['contents']);
  const toolNames = asArray(record?.['tools']).flatMap((tool) =>
    asArray(asRecord(tool)?.['functionDeclarations']).map((d) => stringField(d, 'name') ?? ''),
  );
  const generationConfig = asRecord(record?.['generationConfig']);
  return {
    view: {
      priorModelTurns: countRuns(contents, (c) => stringField(c, 'role') === 'model'),
      lastUserText: lastUserText(contents),
    },
    toolNames: toolNames.filter((n) => n !== ''),
    responseSchema: generationConfig?.['responseJsonSchema'] ?? generationConfig?.['responseSchema'],
  };
}

/** Gemini sends a block reason verbatim as a user text part, so no unwrapping is needed. */
function lastUserText(contents: readonly unknown[]): string | undefined {
  for (let i = contents.length - 1; i >= 0; i -= 1) {
    const content = contents[i];
    if (stringField(content, 'role') !== 'user') continue;
    const texts = asArray(asRecord(content)?.['parts'])
      .map((part) => stringField(part, 'text'))
      .filter((text): text is string => text !== undefined && !text.startsWith('<session_context>'));
    const last = texts.at(-1);
    if (last !== undefined) return last;
  }
  return undefined;
}
