import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { compileEvidence } from '../shell/match-evidence.ts';
import { parseShellCommand } from '../shell/parse-shell-command.ts';
import { patternMatches } from './check-errors.ts';
import { compilePattern, engineFor } from './safe-pattern.ts';

let base: string;
let repo: string;
let home: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ac-safe-pattern-')));
  repo = join(base, 'repo');
  home = join(base, 'home');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(home);
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

async function loadProject(file: object): Promise<readonly string[]> {
  writeFileSync(join(repo, '.agent-checkpoint.json'), JSON.stringify(file));
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
  const loaded = await loadConfig({ cwd: repo, env, homeDir: home, cacheDir: false, stateDir: join(base, 'state') });
  return loaded.diagnostics;
}

describe('regular expressions from the project file', () => {
  it.each(['/(a)\\1/', '/a(?=b)/', '/(?<!x)a/', '/(?<n>a)\\k<n>/'])('%s (needs backtracking) is a config problem as evidence and as an error pattern', async (pattern) => {
    const diagnostics = await loadProject({
      categories: [{ id: 'hostile-cat', include: ['**'], action: 'act', evidence: [pattern] }],
      errorPatterns: [{ id: 'hostile-err', match: pattern, message: 'm' }],
    });
    const text = diagnostics.join('\n');
    expect(text).toMatch(/category "hostile-cat": evidence "[^"]+": not supported in a project file's regular expression \(RE2 syntax/);
    expect(text).toMatch(/error pattern "hostile-err": not supported in a project file's regular expression \(RE2 syntax/);
    // And it matches nothing: never a fallback to the backtracking engine.
    expect(engineFor(pattern)).toBe('linear');
    expect(compilePattern(pattern).kind).toBe('invalid');
    expect(patternMatches(pattern, 'aa ab xa')).toBe(false);
  });

  it('keeps the flags a project file gives (i, m, s) on the linear engine', async () => {
    const patterns = ['/^FAIL\\b/im', '/begin.end/s', '/^pnpm (run )?test\\b/'];
    expect(await loadProject({ errorPatterns: patterns.map((match, i) => ({ id: `p${i}`, match, message: 'm' })) })).toEqual([]);
    for (const p of patterns) expect(engineFor(p)).toBe('linear');
    expect(patternMatches('/^FAIL\\b/im', 'ok\nfail here')).toBe(true);
    expect(patternMatches('/^FAIL\\b/im', 'ok FAIL')).toBe(false);
    expect(patternMatches('/begin.end/s', 'begin\nend')).toBe(true);
    const evidence = compileEvidence('/^pnpm (run )?test\\b/');
    expect(evidence.kind).toBe('regex');
    expect(evidence.kind === 'regex' && evidence.regex.test('pnpm run test')).toBe(true);
    expect(parseShellCommand('pnpm run test').length).toBe(1);
  });

  it('a ReDoS form from the project file matches in linear time', async () => {
    expect(await loadProject({ errorPatterns: [{ id: 'redos', match: '/(x+)+$/', message: 'm' }] })).toEqual([]);
    const started = performance.now();
    expect(patternMatches('/(x+)+$/', `${'x'.repeat(50_000)}!`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('leaves patterns of the built-in defaults and the user file on JavaScript RegExp', async () => {
    writeFileSync(join(home, 'user.json'), JSON.stringify({ errorPatterns: [{ id: 'u', match: '/(?<=user )look/', message: 'm' }] }));
    const env = { HOME: home, AGENT_CHECKPOINT_CONFIG: join(home, 'user.json') };
    const loaded = await loadConfig({ cwd: repo, env, homeDir: home, cacheDir: false, stateDir: join(base, 'state') });
    expect(loaded.diagnostics).toEqual([]);
    expect(engineFor('/(?<=user )look/')).toBe('backtracking');
    expect(patternMatches('/(?<=user )look/', 'user look')).toBe(true);
  });
});
