/**
 * Agent-neutral model scripts for the model-API mock.
 *
 * A {@link Scenario} is the list of answers a model gives over one session, in order. The mock
 * translates each answer into the native wire format and tool vocabulary of whichever CLI is
 * asking (Claude `Bash`/`Read`/`Write`/`Edit`, Gemini `run_shell_command`/`read_file`/`write_file`/
 * `replace`, Codex `exec_command`/`apply_patch`), so the same scenario drives all three agents.
 *
 * Which step answers a request is derived from the request itself (how many model turns its
 * history already holds), never from a counter in the mock: retries, side requests and resumed
 * sessions therefore cannot desynchronise the script. Everything here is plain JSON so a scenario
 * can also be loaded from a file by the standalone mock (`src/mock/cli.ts`).
 */

/** One tool call, in agent-neutral terms. Paths are relative to the workspace root. */
export type ToolCall =
  | {
      readonly kind: 'shell';
      readonly command: string;
      /** Shown by some CLIs next to the command (Claude/Gemini `description`). */
      readonly description?: string;
      /**
       * How long Codex's `exec_command` waits for output before returning a session id instead
       * (its `yield_time_ms`). Defaults to 10 s; raise it for slow commands.
       */
      readonly yieldTimeMs?: number;
    }
  | { readonly kind: 'read'; readonly path: string }
  | { readonly kind: 'write'; readonly path: string; readonly content: string }
  | {
      readonly kind: 'edit';
      readonly path: string;
      /**
       * Text to replace. For Codex this becomes an `apply_patch` hunk, so it must consist of whole
       * lines (a trailing newline is optional); a partial-line edit cannot be expressed there.
       */
      readonly oldText: string;
      readonly newText: string;
    }
  | { readonly kind: 'patch'; readonly changes: readonly PatchChange[] }
  /**
   * Hands a task to a subagent and waits for its report (Claude's `Agent` tool, in the foreground:
   * `run_in_background: false`). The subagent's own model requests reach the mock as a separate
   * conversation opened by `prompt`; {@link Scenario.subagents} scripts them. Claude only: the mock
   * answers the other agents' requests for it with an error.
   */
  | { readonly kind: 'subagent'; readonly description: string; readonly prompt: string; readonly subagentType?: string }
  /**
   * A call in Codex's own vocabulary, passed through as is: a code-mode cell (`custom_tool_call`
   * `exec` whose input is JavaScript), `wait`, or a collaboration tool (`spawn_agent`, `wait_agent`…,
   * a `function_call` whose `input` is the JSON arguments string). Codex only: the mock answers the
   * other agents' requests for it with an error.
   */
  | {
      readonly kind: 'codex';
      readonly type: 'function_call' | 'custom_tool_call';
      readonly name: string;
      readonly input: string;
      /** The Responses API namespace of the tool (`collaboration` for `spawn_agent`…), when it has one. */
      readonly namespace?: string;
    };

/**
 * One file of a multi-file change. Codex receives all changes as one `apply_patch` call; Claude
 * and Gemini receive one tool call per change (Edit/Write/`rm` via the shell, `replace`/
 * `write_file`/`rm`) in the same model response.
 */
export type PatchChange =
  | { readonly op: 'update'; readonly path: string; readonly oldText: string; readonly newText: string }
  | { readonly op: 'add'; readonly path: string; readonly content: string }
  | { readonly op: 'delete'; readonly path: string };

/** What the model says in one response. */
export type ModelReply = (
  | {
      readonly kind: 'tools';
      /** One or more calls, all in the same response (several = parallel tool calls). */
      readonly calls: readonly ToolCall[];
      /** Optional text emitted before the calls in the same response. */
      readonly text?: string;
    }
  | { readonly kind: 'text'; readonly text: string }
) & {
  /**
   * Input tokens the response's usage reports (default 100): a large number makes the CLI's
   * transcript say the context window is filling up, which pushes agent-checkpoint's context level.
   */
  readonly inputTokens?: number;
};

/**
 * A predicate on the request that is being answered. `lastUserText` is the most recent text the
 * user side put into the conversation (the prompt, or an injected hook reason), with the CLI's own
 * wrapping removed: Claude's `Stop hook feedback:\n`, Codex's `<hook_prompt …>…</hook_prompt>`
 * (XML-unescaped). Tool results are not user text.
 */
export type StepCondition =
  | { readonly lastUserText: { readonly startsWith: string } }
  | { readonly lastUserText: { readonly includes: string } };

/** A step whose answer depends on the request. The first matching case wins. */
export interface BranchStep {
  readonly kind: 'branch';
  readonly cases: readonly { readonly when: StepCondition; readonly reply: ModelReply }[];
  readonly otherwise: ModelReply;
}

export type ScenarioStep = ModelReply | BranchStep;

/** A scripted session: step `i` answers the request whose history holds `i` model turns. */
export interface Scenario {
  readonly name: string;
  readonly steps: readonly ScenarioStep[];
  /**
   * Answer for requests past the end of `steps`. Logged as `kind: "fallback"` so tests can assert
   * that a run never needed it. Defaults to a short text answer.
   */
  readonly fallback?: ModelReply;
  /** Answer for Codex TUI title-generation requests (never consumes a step). */
  readonly title?: string;
  /**
   * Scripts of the subagents the main script starts ({@link ToolCall} `subagent`). A request whose
   * conversation opens with a script's `prompt` (its first user text, context reminders aside) is
   * the subagent's: it is answered from that script, step `i` for `i` prior model turns, like the
   * main script. Logged with `thread: "subagent:<index>"`.
   */
  readonly subagents?: readonly SubagentScript[];
  /**
   * Prompt-side tokens every Anthropic and Gemini reply reports in its usage (default 100): pushes
   * the context level that hooks read from the transcript (Anthropic: the excess rides in
   * `cache_read_input_tokens`; Gemini: `promptTokenCount`).
   */
  readonly contextTokens?: number;
}

/** The model side of one subagent conversation. */
export interface SubagentScript {
  /** The task text the parent's `subagent` call passes; identifies the subagent's requests. */
  readonly prompt: string;
  readonly steps: readonly ScenarioStep[];
}

export const DEFAULT_FALLBACK_TEXT = 'Nothing else to do.';
export const DEFAULT_TITLE = 'Scripted e2e task';

// ---- small constructors, so scenarios read like scripts ----

export const shell = (command: string, extra: { description?: string; yieldTimeMs?: number } = {}): ToolCall => ({
  kind: 'shell',
  command,
  ...extra,
});
export const read = (path: string): ToolCall => ({ kind: 'read', path });
export const write = (path: string, content: string): ToolCall => ({ kind: 'write', path, content });
export const edit = (path: string, oldText: string, newText: string): ToolCall => ({
  kind: 'edit',
  path,
  oldText,
  newText,
});
export const patch = (...changes: PatchChange[]): ToolCall => ({ kind: 'patch', changes });
export const subagent = (description: string, prompt: string): ToolCall => ({ kind: 'subagent', description, prompt });
/** A Codex code-mode cell: JavaScript for the `exec` custom tool. */
export const codeCell = (script: string): ToolCall => ({ kind: 'codex', type: 'custom_tool_call', name: 'exec', input: script });
/** A Codex function call with JSON arguments (`wait`; with a namespace `collaboration`: `spawn_agent`, `wait_agent`…). */
export const codexFunction = (name: string, args: Readonly<Record<string, unknown>>, namespace?: string): ToolCall => ({
  kind: 'codex',
  type: 'function_call',
  name,
  input: JSON.stringify(args),
  ...(namespace !== undefined ? { namespace } : {}),
});
export const tools = (...calls: ToolCall[]): ModelReply => ({ kind: 'tools', calls });
export const say = (text: string): ModelReply => ({ kind: 'text', text });
/** The reply with its usage reporting `inputTokens` input tokens (a context that fills up). */
export const withInputTokens = (reply: ModelReply, inputTokens: number): ModelReply => ({ ...reply, inputTokens });

/** `branch(whenUserStartsWith(prefix, reply), otherwise)` */
export function branch(
  cases: readonly { when: StepCondition; reply: ModelReply }[],
  otherwise: ModelReply,
): BranchStep {
  return { kind: 'branch', cases, otherwise };
}

export function whenLastUserTextStartsWith(prefix: string, reply: ModelReply): { when: StepCondition; reply: ModelReply } {
  return { when: { lastUserText: { startsWith: prefix } }, reply };
}
