import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectFiles } from '../src/checkpoint/checkpoint-project.ts';
import { checkpointEnv } from '../src/checkpoint/checkpoint-routes.ts';
import { HOOK_BUNDLE, realHookCommand } from '../src/harness/agent-checkpoint-bins.ts';
import { SKIP_REAL_CLIS, withCheckedSession } from '../src/harness/define-headless-agent-tests.ts';
import { runInGroup, type ProcessResult } from '../src/harness/process-group.ts';
import { shellQuote } from '../src/mock/native-tool-calls.ts';
import { branch, say, shell, tools, withInputTokens, type Scenario } from '../src/mock/scenario.ts';
import { ClaudeSession } from '../src/run-claude.ts';

/**
 * Seed 004's acceptance scenario "Session Resume", with the real Claude Code against the model mock
 * and nothing planted: session A's context reaches L2 (the mock reports 172k input tokens), the real
 * Stop hook writes the handoff; session B (a fresh `claude -p`) starts, the real SessionStart hook
 * injects the handoff into its first model request and records it as consumed; session C starts and
 * does not get it again.
 */

const L2_TOKENS = 172_000;
const A = 'Session A: start the OAuth callback work.';
const B = 'Session B: continue the OAuth work.';
const C = 'Session C: anything left?';
const SCRIPT: Scenario = {
  name: 'session-resume-scenario',
  steps: [
    branch(
      [
        { when: { lastUserText: { includes: A } }, reply: withInputTokens(tools(shell('echo exchanging tokens')), L2_TOKENS) },
        { when: { lastUserText: { includes: B } }, reply: say('Continuing from the handoff.') },
        { when: { lastUserText: { includes: C } }, reply: say('Nothing left.') },
      ],
      say('Unknown session.'),
    ),
    withInputTokens(say('The token exchange is half done.'), L2_TOKENS),
    branch([{ when: { lastUserText: { includes: 'Context at 86% - Initiating checkpoint sequence' } }, reply: withInputTokens(say('Handoff completed.'), L2_TOKENS) }], say('Unexpected request.')),
  ],
};

/** The session id Claude's stream-json output announces (its `system`/`init` line). */
function sessionIdOf(run: ProcessResult): string {
  for (const line of run.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const event = JSON.parse(line) as { type?: string; session_id?: string };
    if (event.session_id !== undefined) return event.session_id;
  }
  throw new Error(`no session id in claude's output:\n${run.stdout.slice(0, 1000)}`);
}

describe.skipIf(SKIP_REAL_CLIS)('acceptance scenario "Session Resume" with a real CLI', () => {
  it('claude: the Stop hook hands off at L2; the next session starts with the handoff, once', async () => {
    const files = projectFiles({ extraConfig: { context: { enabled: true }, handoff: { enabled: true } } });
    const options = { scenario: SCRIPT, files, hook: { kind: 'command' as const, command: realHookCommand('claude') }, env: (w: { root: string; home: string }) => checkpointEnv(w, { debug: true }) };
    await withCheckedSession(ClaudeSession.start(options), async (session) => {
      const { repo, home } = session.workspace;
      // SessionStart in the user's settings (the Stop hook is in the project's), as `install --with-context` adds it.
      mkdirSync(path.join(home, '.claude'), { recursive: true });
      const settingsFile = path.join(home, '.claude', 'settings.json');
      const settings = existsSync(settingsFile) ? (JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>) : {};
      settings['hooks'] = { SessionStart: [{ hooks: [{ type: 'command', command: `node ${shellQuote(HOOK_BUNDLE)} session-start claude`, timeout: 30 }] }] };
      writeFileSync(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);

      const { beforePrompt, afterPrompt } = session.headlessArgv();
      const fresh = async (prompt: string): Promise<{ run: ProcessResult; from: number }> => {
        const from = session.requests.length;
        const run = await runInGroup([...beforePrompt, prompt, ...afterPrompt], { cwd: repo, env: session.env(), timeoutMs: 120_000 });
        session.runs.push(run);
        expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
        return { run, from };
      };
      const firstStep = (from: number) => session.requests.slice(from).find((r) => r.answer === 'step');

      // Session A: L2 → the Stop hook writes the handoff and asks the agent to complete it.
      const a = await fresh(A);
      const handoffs = readdirSync(path.join(repo, '.agent-checkpoint', 'handoffs')).filter((f) => f.endsWith('.md'));
      expect(handoffs).toHaveLength(1);
      const handoff = `.agent-checkpoint/handoffs/${handoffs[0] ?? ''}`;
      expect(readFileSync(path.join(repo, handoff), 'utf8')).toContain('checkpoint_trigger: L2 (context at 86%)');
      expect(session.requests.slice(a.from).some((r) => (r.view?.lastUserText ?? '').includes('Context at 86% - Initiating checkpoint sequence'))).toBe(true);
      // Session A's own start found no handoff to inject.
      expect(JSON.stringify(firstStep(a.from)?.body)).not.toContain('The previous session ended with a context checkpoint');

      // Session B: its first model request carries the pointer and the handoff itself.
      const b = await fresh(B);
      const bBody = JSON.stringify(firstStep(b.from)?.body);
      expect(bBody).toContain('The previous session ended with a context checkpoint (L2 (context at 86%)');
      expect(bBody).toContain(`Read ${handoff} before continuing`);
      expect(bBody).toContain('# Session Handoff: Session A: start the OAuth callback work.');
      // Consumed: one marker, naming the handoff and session B.
      const injectedDir = path.join(repo, '.agent-checkpoint', 'injected');
      const markers = readdirSync(injectedDir).map((f) => JSON.parse(readFileSync(path.join(injectedDir, f), 'utf8')) as Record<string, unknown>);
      expect(markers).toEqual([{ handoff, agent: 'claude', sessionId: sessionIdOf(b.run), at: expect.any(String) as unknown }]);
      expect(sessionIdOf(b.run)).not.toBe(sessionIdOf(a.run));

      // Session C: not given again.
      const c = await fresh(C);
      expect(JSON.stringify(firstStep(c.from)?.body)).not.toContain('The previous session ended with a context checkpoint');
      expect(readdirSync(injectedDir)).toHaveLength(1);
      expect(session.requests.filter((r) => !['step', 'side', 'title'].includes(r.answer)).map((r) => `${r.n} ${r.url} ${r.answer}`)).toEqual([]);
    });
  });
});
