import { ensureAgentClis } from './harness/agent-clis.ts';

// `pnpm --filter @agent-checkpoint/e2e install-clis`: what the vitest global setup does first.
const outcome = ensureAgentClis((line) => console.log(line));
console.log(`${outcome.kind === 'reused' ? 'already installed' : 'installed'}: ${outcome.dir}`);
