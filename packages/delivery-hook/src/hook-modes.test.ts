import { readFileSync } from 'node:fs';
import { AGENT_IDS } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { AGENT_PROFILES } from './agents/profiles.ts';
import { HOOK_MODE_TABLE, TURN_END_AGENTS, hookModeHelpLines, hookModeOf } from './hook-modes.ts';

// One table of the modes agents run (issue 21): the dispatcher, the help, the launcher and the
// old-Node answer all read hook-modes.ts, so none of them may keep a list of its own.

describe('the hook mode table', () => {
  it('has one turn-end mode per agent id, and the agents only there', () => {
    expect([...TURN_END_AGENTS]).toEqual([...AGENT_IDS]);
    expect(HOOK_MODE_TABLE.filter((entry) => entry.kind === 'turn-end').map((entry) => entry.name)).toEqual([...AGENT_IDS]);
  });

  it('names every mode once and finds each by its first argument', () => {
    const names = HOOK_MODE_TABLE.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of HOOK_MODE_TABLE) expect(hookModeOf(entry.name)).toBe(entry);
    expect(hookModeOf('doctor')).toBeUndefined();
    expect(hookModeOf(undefined)).toBeUndefined();
    expect(names).toEqual(expect.arrayContaining(['hook', 'session-start', 'pre-compact', 'prompt-submit', 'post-tool', 'statusline']));
  });

  it('the help lists every mode, aligned', () => {
    const lines = hookModeHelpLines('agent-checkpoint-hook');
    expect(lines[0]).toMatch(new RegExp(`^ {2}agent-checkpoint-hook <${TURN_END_AGENTS.join('\\|')}> \\[--debug\\] +turn-end hook`));
    for (const entry of HOOK_MODE_TABLE.filter((e) => e.kind !== 'turn-end')) {
      expect(lines.some((line) => line.startsWith(`  agent-checkpoint-hook ${entry.name}`) && line.endsWith(entry.summary)), entry.name).toBe(true);
    }
    const column = new Set(lines.map((line, i) => line.indexOf(i === 0 ? 'turn-end hook' : HOOK_MODE_TABLE.filter((e) => e.kind !== 'turn-end')[i - 1]!.summary)));
    expect(column.size).toBe(1);
  });

  it.each(AGENT_IDS)("%s: every hook entry the profile registers runs a mode of the table, for this agent", (agent) => {
    for (const entry of AGENT_PROFILES[agent].hookEntries) {
      const mode = hookModeOf(entry.args[0]);
      expect(mode, `${agent} ${entry.event}: ${entry.args.join(' ')}`).toBeDefined();
      // A turn-end mode is the agent itself; a context mode takes the agent as its next argument.
      if (mode?.kind === 'turn-end') expect(entry.args, entry.event).toEqual([agent]);
      else expect([mode?.takesAgent, ...entry.args.slice(1)], entry.event).toEqual([true, agent]);
      expect(entry.feature === 'context', entry.event).toBe(mode?.kind === 'context' || mode?.kind === 'post-tool');
    }
  });

  it('no other source file keeps a list of the hook modes', () => {
    // The four tables this one replaced (cli.ts, commands/hook-cli.ts, launcher/start-hook.ts,
    // launcher/node-version.ts) each listed the context modes by name (the kind `post-tool` in a `case` or a comparison is no list).
    for (const file of ['cli.ts', 'commands/hook-cli.ts', 'launcher/start-hook.ts', 'launcher/node-version.ts']) {
      const text = readFileSync(new URL(`./${file}`, import.meta.url), 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
      expect(text.match(/(?<!case |kind === )'(session-start|pre-compact|prompt-submit|post-tool|statusline)'/g) ?? [], file).toEqual([]);
    }
  });

  it('the plugin\'s sh launcher skips Node without a config file for exactly the table\'s `skip` modes, and gives the no-Node notice for exactly its `notice` modes', () => {
    const script = readFileSync(new URL('../../../plugins/agent-checkpoint/hooks/run-hook.sh', import.meta.url), 'utf8');
    const skipCase = /^case \$\{1-\} in\n {2}([\w-]+(?: \| [\w-]+)*)\)$/m.exec(script);
    expect(skipCase, 'run-hook.sh has its `case ${1-} in` of the modes it may skip').not.toBeNull();
    const skipped = (skipCase?.[1] ?? '').split(' | ').sort();
    expect(skipped).toEqual(HOOK_MODE_TABLE.filter((entry) => entry.withoutConfigFile === 'skip').map((entry) => entry.name).sort());
    const noticed = [...script.matchAll(/\[ "\$\{1-\}" = ([\w-]+) \]/g)].map((m) => m[1]).sort();
    expect(noticed).toEqual(HOOK_MODE_TABLE.filter((entry) => entry.whenNodeTooOld === 'notice').map((entry) => entry.name).sort());
  });
});
