import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectFiles } from '../src/checkpoint/checkpoint-project.ts';
import { checkpointEnv } from '../src/checkpoint/checkpoint-routes.ts';
import { HOOK_BUNDLE, realHookCommand } from '../src/harness/agent-checkpoint-bins.ts';
import { SKIP_REAL_CLIS, withCheckedSession } from '../src/harness/define-headless-agent-tests.ts';
import { runInGroup } from '../src/harness/process-group.ts';
import { shellQuote } from '../src/mock/native-tool-calls.ts';
import { branch, say, shell, tools, withInputTokens, type Scenario } from '../src/mock/scenario.ts';
import { ClaudeSession } from '../src/run-claude.ts';

/**
 * The loop-runner recipe of docs/loop-runners.md, run as written (extracted from the page) around
 * the real Claude Code against the model mock: three fresh `claude -p` iterations. In the first the
 * mock reports 172k input tokens (86 % of 200k: L2), so the Stop hook writes a handoff and asks the
 * agent to complete it; `loop next` then exits 10, the second iteration's prompt carries the resume
 * section (and the loop state marks the handoff consumed); the third gets no resume section.
 */

const DOCS = path.join(import.meta.dirname, '..', '..', 'docs', 'loop-runners.md');
const L2_TOKENS = 172_000;
const TASK = 'Work through the plan in PLAN.md; one step per iteration.';

/** The fenced bash block after the recipe marker: the test runs what users copy. */
function recipeFromDocs(): string {
  const page = readFileSync(DOCS, 'utf8');
  const match = /<!-- loop-runner-recipe[^>]*-->\n```bash\n([\s\S]*?)\n```/.exec(page);
  if (match?.[1] === undefined) throw new Error(`no loop-runner recipe block in ${DOCS}`);
  return `${match[1]}\n`;
}

const iteration = (n: number) => ({ lastUserText: { includes: `Loop iteration ${n} of 3.` } });
const SCRIPT: Scenario = {
  name: 'loop-runner-resume',
  steps: [
    branch(
      [
        { when: iteration(1), reply: withInputTokens(tools(shell('echo step one')), L2_TOKENS) },
        { when: iteration(2), reply: say('Resumed from the handoff; continuing step two.') },
        { when: iteration(3), reply: say('Step three done.') },
      ],
      say('Unknown iteration.'),
    ),
    withInputTokens(say('Step one is half done.'), L2_TOKENS),
    // The Stop hook's L2 block reaches the model as the next user text: the agent completes the handoff.
    branch([{ when: { lastUserText: { includes: 'Context at 86% - Initiating checkpoint sequence' } }, reply: withInputTokens(say('Handoff completed.'), L2_TOKENS) }], say('Unexpected request.')),
  ],
};

describe.skipIf(SKIP_REAL_CLIS)('the documented loop-runner recipe with a real CLI', () => {
  it('claude: three iterations, a handoff in the first, resumed once in the second, not in the third', async () => {
    const files = {
      ...projectFiles({ extraConfig: { context: { enabled: true }, handoff: { enabled: true } } }),
      'PROMPT.md': `${TASK}\n`,
      'PLAN.md': '- [ ] step one\n- [ ] step two\n- [ ] step three\n',
    };
    const options = { scenario: SCRIPT, files, hook: { kind: 'command' as const, command: realHookCommand('claude') }, env: (w: { root: string; home: string }) => checkpointEnv(w, { debug: true }) };
    await withCheckedSession(ClaudeSession.start(options), async (session) => {
      const repo = session.workspace.repo;
      const { beforePrompt, afterPrompt } = session.headlessArgv();
      writeFileSync(path.join(repo, 'ralph-loop.sh'), recipeFromDocs(), { mode: 0o755 });
      const run = await runInGroup(['bash', 'ralph-loop.sh', '3', ...beforePrompt, ...afterPrompt], {
        cwd: repo,
        env: { ...session.env(), HOOK: `node ${shellQuote(HOOK_BUNDLE)}` },
        timeoutMs: 200_000,
      });
      session.runs.push(run);
      const logs = [1, 2, 3].map((i) => {
        const file = path.join(repo, '.agent-checkpoint', `iteration-${i}.log`);
        return existsSync(file) ? readFileSync(file, 'utf8').slice(-1500) : '(no log)';
      });
      expect(run.exitCode, `loop runner stderr:\n${run.stderr}\nlogs:\n${logs.join('\n---\n')}`).toBe(0);
      expect(run.stderr.split('\n').filter((l) => l.startsWith('ralph-loop:'))).toEqual([1, 2, 3].map((i) => `ralph-loop: iteration ${i}: agent exited 0`));

      // The handoff of iteration 1, and the loop state after three iterations.
      const handoffs = readdirSync(path.join(repo, '.agent-checkpoint', 'handoffs')).filter((f) => f.endsWith('.md'));
      expect(handoffs).toHaveLength(1);
      const handoff = `.agent-checkpoint/handoffs/${handoffs[0] ?? ''}`;
      expect(readFileSync(path.join(repo, handoff), 'utf8')).toContain('checkpoint_trigger: L2 (context at 86%)');
      const state = JSON.parse(readFileSync(path.join(repo, '.agent-checkpoint', 'loop-state.json'), 'utf8')) as Record<string, unknown>;
      expect(state).toMatchObject({
        iteration: 3,
        context_checkpoint: { active: false, level: 'L2', percent_at_checkpoint: 86, handoff_file: handoff, handoff_iteration: 1, handoff_consumed: true },
        context_history: [
          { iteration: 1, peak_percent: 86, checkpoint: true },
          { iteration: 2, peak_percent: 0, checkpoint: false },
          { iteration: 3, peak_percent: 0, checkpoint: false },
        ],
      });
      expect(existsSync(path.join(repo, '.agent-checkpoint', 'loop-end-iteration'))).toBe(false);
      // The recipe ends with `loop status`.
      expect(run.stdout).toContain(`Checkpoint: L2 at 86% in iteration 1, ${handoff} (resumed)`);

      // What the model was sent: iteration 1 got the L2 block after its turn, iteration 2's prompt
      // carried the resume section with the handoff, iteration 3's did not.
      const steps = session.requests.filter((r) => r.answer === 'step');
      const userTexts = steps.map((r) => r.view?.lastUserText ?? '');
      expect(userTexts.some((t) => t.includes('Context at 86% - Initiating checkpoint sequence') && t.includes(handoff))).toBe(true);
      const prompts = [1, 2, 3].map((n) => userTexts.find((t) => t.includes(`Loop iteration ${n} of 3.`)) ?? '');
      expect(prompts.map((p) => p.includes(TASK))).toEqual([true, true, true]);
      expect(prompts.map((p) => p.includes('## CONTEXT CHECKPOINT RESUME'))).toEqual([false, true, false]);
      expect(prompts[1]).toContain(`- **Handoff**: ${handoff}`);
      expect(session.requests.filter((r) => !['step', 'side', 'title'].includes(r.answer)).map((r) => `${r.n} ${r.url} ${r.answer}`)).toEqual([]);
    });
  });
});
