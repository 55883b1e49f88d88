import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectFiles } from '../src/checkpoint/checkpoint-project.ts';
import { DAEMON_NOT_RESTARTED } from '../src/checkpoint/checkpoint-scenarios.ts';
import { findDeliveredCheckpoint } from '../src/checkpoint/delivered-checkpoint.ts';
import { E2E_PACKAGE_DIR } from '../src/harness/agent-clis.ts';
import { SKIP_REAL_CLIS, withCheckedSession } from '../src/harness/define-headless-agent-tests.ts';
import { runInGroup } from '../src/harness/process-group.ts';
import { GeminiSession } from '../src/run-gemini.ts';

/**
 * Gemini CLI 0.61's `extensions install <path>` copies the whole directory (`fs.cp`, no ignore
 * file), so a development clone would bring its node_modules and build outputs. `pnpm
 * gemini-extension <dir>` stages only the extension's tracked files; installed from there, the
 * extension holds exactly those files and its hook checkpoints a turn.
 */
const REPO_ROOT = path.dirname(E2E_PACKAGE_DIR);

function filesUnder(root: string, relative = ''): string[] {
  return readdirSync(path.join(root, relative), { withFileTypes: true }).flatMap((entry) => {
    const child = path.join(relative, entry.name);
    return entry.isDirectory() ? filesUnder(root, child) : [child];
  });
}

describe.skipIf(SKIP_REAL_CLIS)('the Gemini extension staged from a development clone', () => {
  it('copies no dependency or build folder, installs with the real CLI, and checkpoints a turn', async () => {
    // This checkout has what `gemini extensions install .` would drag along.
    expect(existsSync(path.join(REPO_ROOT, 'node_modules'))).toBe(true);
    const start = GeminiSession.start({
      scenario: DAEMON_NOT_RESTARTED.script,
      files: projectFiles(),
      hook: { kind: 'none' },
      env: (workspace) => ({ AGENT_CHECKPOINT_STATE_DIR: path.join(workspace.root, 'state') }),
    });
    await withCheckedSession(start, async (session) => {
      const staged = path.join(session.workspace.root, 'extension');
      execFileSync('pnpm', ['-s', 'gemini-extension', staged], { cwd: REPO_ROOT, stdio: 'pipe' });
      const files = filesUnder(staged).sort();
      expect(files.filter((f) => /(^|\/)(node_modules|\.turbo|\.git|packages|e2e|bench)(\/|$)/.test(f))).toEqual([]);
      // Every file the extension's hooks start is in the staged copy: named after `${extensionPath}`
      // or, since the root reaches the hook through its `env` (never its shell line), after
      // `$AGENT_CHECKPOINT_EXTENSION_PATH` (bash) or `process.env.AGENT_CHECKPOINT_EXTENSION_PATH+'` (PowerShell).
      const hooks = readFileSync(path.join(staged, 'hooks', 'hooks.json'), 'utf8');
      const referenced = [...hooks.matchAll(/(?:\$\{extensionPath\}|\$AGENT_CHECKPOINT_EXTENSION_PATH|process\.env\.AGENT_CHECKPOINT_EXTENSION_PATH\+')\/([^"\\' ]+)/g)].map((m) => m[1] as string);
      expect(referenced).toContain('plugins/agent-checkpoint/hooks/run-hook.sh');
      expect(referenced.length).toBeGreaterThan(0);
      for (const file of referenced) expect(files, file).toContain(file);

      const install = await runInGroup([...session.cli.argv, 'extensions', 'install', staged, '--consent'], { cwd: session.workspace.repo, env: session.env(), timeoutMs: 90_000 });
      expect(install.exitCode, install.stderr).toBe(0);
      const installed = path.join(session.workspace.home, '.gemini', 'extensions', 'agent-checkpoint');
      expect(filesUnder(installed).sort()).toEqual([...files, '.gemini-extension-install.json'].sort());

      await session.prompt(DAEMON_NOT_RESTARTED.prompt);
      const delivered = session.requests.flatMap((r) => (r.answer === 'step' ? [findDeliveredCheckpoint('gemini-hook', r.body)] : [])).filter((c) => c !== undefined);
      expect(delivered.length).toBeGreaterThan(0);
    });
  });
});
