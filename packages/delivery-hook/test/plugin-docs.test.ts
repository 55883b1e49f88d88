import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The docs that count or list the plugin's hooks agree with the hooks files the agents read (issue 24:
// Codex showed "5 hooks need review" where the docs said 3; the plugin README listed 3 events of 5).

const ROOT = join(import.meta.dirname, '..', '..', '..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const hooksOf = (path: string): Record<string, Array<{ hooks: unknown[] }>> => (JSON.parse(read(path)) as { hooks: Record<string, Array<{ hooks: unknown[] }>> }).hooks;

const FILES = {
  'Claude Code': 'plugins/agent-checkpoint/hooks/claude-hooks.json',
  'Codex CLI': 'plugins/agent-checkpoint/hooks/codex-hooks.json',
  'Gemini CLI': 'hooks/hooks.json',
} as const;

describe('plugin docs', () => {
  it.each(Object.entries(FILES))("the plugin README lists every event %s's hooks file registers", (agent, file) => {
    const row = read('plugins/agent-checkpoint/README.md')
      .split('\n')
      .find((line) => line.startsWith(`| ${agent} |`));
    expect(row).toBeDefined();
    const listed = [...row!.split('|')[2]!.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]);
    expect(listed.sort()).toEqual(Object.keys(hooksOf(file)).sort());
  });

  it('the quick start counts the hooks Codex asks to trust: one per handler of the plugin', () => {
    const handlers = Object.values(hooksOf(FILES['Codex CLI'])).flatMap((groups) => groups.flatMap((group) => group.hooks)).length;
    const quickStart = read('docs/quick-start.md');
    expect(/Hooks need review — (\d+) hooks are new or\s+changed/.exec(quickStart)?.[1]).toBe(String(handlers));
    expect(read('plugins/agent-checkpoint/README.md')).toContain(`Hooks need review — ${handlers} hooks are new or changed`);
    const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
    expect(quickStart).toContain(`trust records of the ${words[handlers]} hooks`);
  });
});
