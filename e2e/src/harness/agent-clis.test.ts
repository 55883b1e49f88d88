import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AGENT_IDS } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { E2E_PACKAGE_DIR, pinnedAgentClis } from './agent-clis.ts';

/** The first cells of the README's route table ("The same message reaches the agent on every route"). */
function routeTableAgents(): string[] {
  const readme = readFileSync(path.join(E2E_PACKAGE_DIR, '..', 'README.md'), 'utf8');
  const start = readme.indexOf('| agent (version the e2e suite pins) |');
  if (start < 0) throw new Error('README.md has no route table');
  const rows = readme.slice(start).split('\n\n')[0]?.split('\n').slice(2) ?? [];
  return rows.map((row) => row.split('|')[1]?.trim() ?? '');
}

describe('the pinned agent CLIs', () => {
  it('each has a row in the README route table naming the version the e2e suite runs', () => {
    const pins = pinnedAgentClis();
    const agents = routeTableAgents();
    for (const agent of AGENT_IDS) {
      const { title, version } = pins[agent];
      expect(agents.some((cell) => cell.startsWith(`${title} ${version}`)), `${agent}: no row "${title} ${version}" in ${JSON.stringify(agents)}`).toBe(true);
    }
  });

  it('each is named with its version where the README says which CLIs the test command runs', () => {
    const readme = readFileSync(path.join(E2E_PACKAGE_DIR, '..', 'README.md'), 'utf8');
    const sentence = readme.slice(readme.indexOf('Run every test'), readme.indexOf('driven by'));
    for (const { packageName, version } of Object.values(pinnedAgentClis())) expect(sentence).toContain(`\`${packageName}\` ${version}`);
  });
});
