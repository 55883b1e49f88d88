import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';

// `install --agent pi` through the built bin, on a temp HOME: Pi has no hook settings, so install
// writes our extension (the plugin's index.js) and its hook.json; uninstall removes both.

/** The extension as the plugin ships it. */
const SHIPPED = resolve(import.meta.dirname, '../../../../plugins/agent-checkpoint/pi/agent-checkpoint/index.js');

let sandbox: HookSandbox;
beforeEach(() => {
  sandbox = createHookSandbox('ac-pi-install-');
});
afterEach(() => sandbox.remove());

const run = (args: string[], env: Record<string, string> = {}) => runHookBundle({ args, env: { ...sandbox.env, NO_COLOR: '1', ...env }, cwd: sandbox.home });

describe('install --agent pi', () => {
  it('writes the extension and a hook.json that runs our turn-end hook; a second install changes nothing; uninstall removes both', async () => {
    const dir = join(sandbox.home, '.pi', 'agent', 'extensions', 'agent-checkpoint');
    const installed = await run(['install', '--agent', 'pi']);
    expect(installed.code, installed.stderr).toBe(0);
    expect(readFileSync(join(dir, 'index.js'), 'utf8')).toBe(readFileSync(SHIPPED, 'utf8'));
    const hooks = (JSON.parse(readFileSync(join(dir, 'hook.json'), 'utf8')) as { hooks: Record<string, { hooks: { type: string; command: string; timeout: number }[] }[]> }).hooks;
    expect(Object.keys(hooks)).toEqual(['turn_end']);
    const handler = hooks['turn_end']?.[0]?.hooks[0];
    expect(handler?.type).toBe('command');
    expect(handler?.command).toMatch(/agent-checkpoint-hook\.cjs"? pi$/);
    expect(handler?.timeout).toBe(60);

    const hookJson = readFileSync(join(dir, 'hook.json'));
    const again = await run(['install', '--agent', 'pi']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('already registered');
    expect(readFileSync(join(dir, 'hook.json')).equals(hookJson)).toBe(true);

    const removed = await run(['uninstall', '--agent', 'pi']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(join(dir, 'hook.json'))).toBe(false);
    expect(existsSync(join(dir, 'index.js'))).toBe(false);
  });

  it('PI_CODING_AGENT_DIR moves it; the project scope writes <repo>/.pi/extensions/; an index.js the user changed survives uninstall', async () => {
    const agentDir = join(sandbox.home, 'elsewhere');
    expect((await run(['install', '--agent', 'pi'], { PI_CODING_AGENT_DIR: agentDir })).code).toBe(0);
    expect(existsSync(join(agentDir, 'extensions', 'agent-checkpoint', 'hook.json'))).toBe(true);
    expect(existsSync(join(sandbox.home, '.pi'))).toBe(false);

    const repo = join(sandbox.home, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    expect((await run(['install', '--agent', 'pi', '--scope', 'project', '--cwd', repo])).code).toBe(0);
    const project = join(repo, '.pi', 'extensions', 'agent-checkpoint');
    expect(existsSync(join(project, 'index.js'))).toBe(true);
    writeFileSync(join(project, 'index.js'), '// mine\n');
    expect((await run(['uninstall', '--agent', 'pi', '--scope', 'project', '--cwd', repo])).code).toBe(0);
    expect(existsSync(join(project, 'hook.json'))).toBe(false);
    expect(readFileSync(join(project, 'index.js'), 'utf8')).toBe('// mine\n');
  });

  it('--with-context adds the context hooks on their Pi events, each a command the extension runs as argv without a shell; uninstall removes them all', async () => {
    const dir = join(sandbox.home, '.pi', 'agent', 'extensions', 'agent-checkpoint');
    const installed = await run(['install', '--agent', 'pi', '--with-context']);
    expect(installed.code, installed.stderr).toBe(0);
    const hooks = (JSON.parse(readFileSync(join(dir, 'hook.json'), 'utf8')) as { hooks: Record<string, { hooks: { command: string; timeout: number }[] }[]> }).hooks;
    const { commandWords } = (await import(pathToFileURL(SHIPPED).href)) as { commandWords: (command: string) => string[] | undefined };
    const argv = Object.fromEntries(Object.entries(hooks).map(([event, groups]) => [event, commandWords(groups[0]?.hooks[0]?.command ?? '')?.slice(2)]));
    expect(argv).toEqual({
      turn_end: ['pi'],
      session_start: ['session-start', 'pi'],
      session_before_compact: ['pre-compact', 'pi'],
      tool_result: ['post-tool', 'pi'],
      before_agent_start: ['prompt-submit', 'pi'],
    });
    const [node, bundle] = commandWords(hooks['tool_result']?.[0]?.hooks[0]?.command ?? '') ?? [];
    expect(node).toBe(realpathSync(process.execPath));
    expect(bundle).toMatch(/\/agent-checkpoint-hook\.cjs$/);
    expect((await run(['uninstall', '--agent', 'pi'])).code).toBe(0);
    expect(existsSync(join(dir, 'hook.json'))).toBe(false);
  });

  it('doctor reports the registered turn_end hook as ok', async () => {
    expect((await run(['install', '--agent', 'pi'])).code).toBe(0);
    const doctor = JSON.parse((await run(['doctor', '--json'])).stdout) as { findings: { id: string; status: string }[] };
    expect(doctor.findings.find((f) => f.id === 'pi.hook.user.turn_end')?.status).toBe('ok');
  });
});
