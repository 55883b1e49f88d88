import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_IDS } from '@agent-checkpoint/core';
import { HOOK_ENTRIES } from './hook-entries.ts';

// Agent knowledge lives in one profile per agent (src/agents/*-profile.ts). Everywhere else asks the
// profile: a `switch (agent)`, a `case 'claude'`, an `agent === 'gemini'` or a map keyed by agent
// outside src/agents/ is a second place to update when an agent changes or a new one is added.
//
// An agent's event names (`UserPromptSubmit`, `BeforeAgent`, `AfterTool`…) are agent knowledge too: they
// are written once, in its hook entries (hook-entries.ts), and a hook asks those entries whether a
// payload's event is one it answers. A quoted event name in code outside src/agents/ is a second list.
//
// Not scanned: tests and src/test-support/ — their payload builders and output parsers state each
// agent's format on their own, so the tests do not check the profiles against themselves.

const SRC = join(import.meta.dirname, '..');
// Every agent id: a guard written for the first three would miss a branch on a newer one.
const AGENT = `(?:${AGENT_IDS.join('|')})`;
/** An agent id in quotes; `n` numbers the quote's capture group (one per use in a pattern). */
const quotedAgent = (n: number): string => `(['"\`])${AGENT}\\${n}`;

const RULES: readonly { readonly name: string; readonly pattern: RegExp }[] = [
  { name: 'switch on an agent', pattern: /\bswitch\s*\(\s*[\w.?]*agent\w*\s*\)/i },
  { name: 'case for an agent', pattern: new RegExp(String.raw`\bcase\s+${quotedAgent(1)}\s*:`) },
  { name: 'comparison with an agent id', pattern: new RegExp(String.raw`[!=]==?\s*${quotedAgent(1)}|${quotedAgent(2)}\s*[!=]==?`) },
];

/** A map keyed by agent: two or more agent ids as object keys (`claude: …`, `'gemini': …`) in one file. */
const MAP_KEY = new RegExp(String.raw`^\s*(['"]?)(${AGENT})\1\s*:`, 'gm');

/** Every event name some agent's hook entries register, longest first (a name may contain another). */
const EVENT_NAMES = [...new Set(Object.values(HOOK_ENTRIES).flatMap((entries) => entries.map((entry) => entry.event)))].sort((a, b) => b.length - a.length);
/** One of those names as a whole string literal: `'AfterTool'`, `"Stop"`, `` `PreCompress` ``. */
const EVENT_LITERAL = new RegExp(String.raw`(['"\`])(?:${EVENT_NAMES.join('|')})\1`);

/** Every agent branching in `source`, as `<line>: <rule>`. */
function agentBranches(source: string): string[] {
  const lines = source.split('\n');
  const found: string[] = [];
  lines.forEach((line, i) => {
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) return; // comments may name agents
    for (const rule of RULES) if (rule.pattern.test(line)) found.push(`${i + 1}: ${rule.name}`);
    if (EVENT_LITERAL.test(line)) found.push(`${i + 1}: an agent's event name (ask its hook entries)`);
  });
  const keys = new Map<string, number>();
  for (const match of source.matchAll(MAP_KEY)) {
    const line = source.slice(0, match.index).split('\n').length;
    if (!keys.has(match[2]!)) keys.set(match[2]!, line);
  }
  if (keys.size >= 2) found.push(`${[...keys.values()][0]}: map keyed by agent (${[...keys.keys()].join(', ')})`);
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['agents', 'test-support', 'node_modules'].includes(entry.name) && dir === SRC ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('agent knowledge stays in the profiles', () => {
  it('the scanner catches each form of agent branching (self-check)', () => {
    const samples: Record<string, string> = {
      switch: 'switch (agent) {\n  default:\n}',
      'switch on a field': 'switch (options.agent) {}',
      case: "  case 'claude':\n    return 1;",
      'double-quoted case': '  case "codex":',
      equals: "const unit = agent === 'gemini' ? 'ms' : 's';",
      'not equals': "if (context.agent !== 'codex') return;",
      reversed: "if ('claude' == agent) return;",
      map: "const TITLES = {\n  claude: 'Claude Code',\n  gemini: 'Gemini CLI',\n};",
      'quoted map': "const T = {\n  'codex': 1,\n  'claude': 2,\n};",
      'event set': "const EVENTS = new Set(['UserPromptSubmit', 'BeforeAgent']);",
      'event comparison': 'if (event.eventName === "AfterTool") return;',
      'camelCase event': "const names = ['postToolUseFailure'];",
      'template event': 'const name = `PreCompress`;',
    };
    for (const [name, sample] of Object.entries(samples)) expect(agentBranches(sample), name).not.toEqual([]);
    // Not branching: a profile lookup, an id in a message, a single agent's own fixed value, comments.
    const clean = [
      'const title = profileOf(agent).title;',
      "log.warn(`unknown agent ${name}; expected claude, gemini or codex`);",
      "const { state } = await readSessionState({ stateDir, agent: 'claude', sessionId });",
      "// switch (agent) used to live here; agent === 'gemini' too",
      " * case 'claude': see the profile",
      "// the adapters answered 'PostToolUse' and 'BeforeAgent' here",
      "if (!answersHookEvent(profile.hookEntries, 'post-tool', event.eventName)) return;",
      "const label = 'Stopped';",
    ].join('\n');
    expect(agentBranches(clean)).toEqual([]);
  });

  it('no source outside src/agents/ branches on the agent', () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap((file) => agentBranches(readFileSync(file, 'utf8')).map((hit) => `${relative(SRC, file)}:${hit}`));
    expect(offenders).toEqual([]);
  });
});
