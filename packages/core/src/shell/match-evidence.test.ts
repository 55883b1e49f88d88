import { describe, expect, test } from 'vitest';
import { compileEvidence, matchesEvidence, validateEvidence } from './match-evidence.ts';
import { parseShellCommand } from './parse-shell-command.ts';

/** True when any segment of `command` matches `evidence`. */
const proves = (command: string, evidence: string) => parseShellCommand(command).some((s) => matchesEvidence(s, evidence));

describe('plain evidence: program plus arguments in order', () => {
  test.each([
    ['make restart', 'make restart'],
    ['make -C . restart', 'make restart'],
    ['cd repo && make restart', 'make restart'],
    ['FOO=1 make restart', 'make restart'],
    ['timeout 60 pytest', 'pytest'],
    ['bash -lc "make restart"', 'make restart'],
    ['.venv/bin/pytest -q', 'pytest'],
    ['.venv/bin/python -m pytest tests', 'pytest'],
    ['make restart | tee restart.log', 'make restart'],
    ['uv run pytest', 'pytest'],
    ['npm run test', 'npm test'],
    ['pnpm --filter web test', 'pnpm test'],
    ['pkill -SIGUSR2 -f -- "-m teleclaude.cli.telec$"', 'pkill -SIGUSR2'],
    ['python3 -m pip install -e .', 'pip install'],
    ['uv pip install -r requirements.txt', 'pip install'],
    ['docker compose up -d --build', 'docker compose up --build'],
  ])('%s proves %s', (command, evidence) => {
    expect(proves(command, evidence)).toBe(true);
  });

  test.each([
    ['echo "make restart"', 'make restart'],
    ['echo $(make restart)', 'make restart'],
    ['git commit -m "make restart"', 'make restart'],
    ["cat <<'EOF'\nmake restart\nEOF", 'make restart'],
    ['# make restart', 'make restart'],
    ['make restart-all', 'make restart'],
    ['make status', 'make restart'],
    ['echo pytest', 'pytest'],
    ['pytest-watch', 'pytest'],
    ['docker compose up -d', 'docker compose up --build'],
  ])('%s does not prove %s', (command, evidence) => {
    expect(proves(command, evidence)).toBe(false);
  });

  test('evidence written with wrappers is normalized the same way', () => {
    expect(proves('pytest -q', 'uv run pytest')).toBe(true);
    expect(proves('python -m pytest', '.venv/bin/pytest')).toBe(true);
  });
});

describe('regex evidence: the normalized segment text', () => {
  test('anchored on the program', () => {
    expect(proves('kill -USR2 1234', '/^p?kill\\b.*USR2/')).toBe(true);
    expect(proves('echo kill -USR2', '/^p?kill\\b.*USR2/')).toBe(false);
  });

  test('flags are honoured and g/y cannot make it stateful', () => {
    const e = '/^MAKE restart/gi';
    expect(proves('make restart', e)).toBe(true);
    expect(proves('make restart', e)).toBe(true);
  });
});

describe('invalid evidence', () => {
  test('is reported and never matches', () => {
    expect(validateEvidence('/([/')).toMatch(/invalid regular expression/);
    expect(validateEvidence('make a && make b')).toMatch(/single command/);
    expect(validateEvidence('   ')).toMatch(/no command/);
    expect(validateEvidence('make restart')).toBeUndefined();
    expect(proves('make a', '/([/')).toBe(false);
  });

  test('compiles once', () => {
    expect(compileEvidence('make restart')).toBe(compileEvidence('make restart'));
  });
});
