import { describe, expect, test } from 'vitest';
import { normalizedText, parseShellCommand } from './parse-shell-command.ts';

const programs = (text: string) => parseShellCommand(text).map((s) => s.program);
const one = (text: string) => {
  const segs = parseShellCommand(text);
  expect(segs, text).toHaveLength(1);
  return segs[0]!;
};

describe('splitting into segments', () => {
  test('splits on && || ; | |& & and newlines', () => {
    expect(programs('a && b || c ; d | e |& f & g\nh')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  });

  test('operators inside quotes do not split', () => {
    expect(programs(`echo "a && b" 'c | d' e\\;f`)).toEqual(['echo']);
    expect(one(`git grep -n "foo|bar"`).args).toEqual(['grep', '-n', 'foo|bar']);
  });

  test('raw text is the exact source slice', () => {
    const text = '  FOO=1  make   restart  &&make status ';
    const segs = parseShellCommand(text);
    expect(segs.map((s) => s.raw)).toEqual(['FOO=1  make   restart', 'make status']);
    for (const s of segs) expect(text.slice(s.start, s.end)).toBe(s.raw);
  });

  test('comments are dropped; # inside a word is not a comment', () => {
    expect(one('make restart # then status').args).toEqual(['restart']);
    expect(one('echo a#b').args).toEqual(['a#b']);
    expect(parseShellCommand('# just a comment')).toEqual([]);
  });

  test('pipes are marked', () => {
    const [a, b] = parseShellCommand('make restart | tee log');
    expect(a!.pipedTo).toBe(true);
    expect(b!.pipedFrom).toBe(true);
    expect(b!.program).toBe('tee');
  });

  test('background commands are marked', () => {
    expect(one('npm run dev &').background).toBe(true);
  });

  test('line continuations join a command', () => {
    expect(one('pytest \\\n  -x \\\n  tests/a.py').args).toEqual(['-x', 'tests/a.py']);
  });

  test('compound commands: keywords are stripped, loops headers skipped', () => {
    expect(programs('if make test; then echo ok; else echo bad; fi')).toEqual(['make', 'echo', 'echo']);
    expect(programs('for f in *.py; do black "$f"; done')).toEqual(['black']);
    // The loop's redirection stays as a program-less segment (`done > out` writes a file).
    expect(programs('while read l; do echo "$l"; done < list.txt')).toEqual(['read', 'echo', '']);
    expect(programs('{ make build; make test; }')).toEqual(['make', 'make']);
    expect(programs('(cd web && npm test)')).toEqual(['cd', 'npm']);
    expect(programs('! grep -q x f')).toEqual(['grep']);
  });
});

describe('heredocs', () => {
  test('heredoc bodies are never commands', () => {
    const segs = parseShellCommand("cat > notes.txt <<'EOF'\nmake restart\nrm -rf /\nEOF\nmake status");
    expect(segs.map((s) => s.program)).toEqual(['cat', 'make']);
    expect(segs[1]!.args).toEqual(['status']);
    expect(segs[0]!.redirects.find((r) => r.op === '<<')!.heredoc).toBe('make restart\nrm -rf /\n');
  });

  test('<<- strips leading tabs on the delimiter line', () => {
    expect(programs('cat <<-EOF\n\tmake restart\n\tEOF\nls')).toEqual(['cat', 'ls']);
  });

  test('several heredocs on one line', () => {
    const segs = parseShellCommand('paste <<A <<B\na1\nA\nb1\nB\necho done');
    expect(segs.map((s) => s.program)).toEqual(['paste', 'echo']);
    expect(segs[0]!.redirects.map((r) => r.heredoc)).toEqual(['a1\n', 'b1\n']);
  });

  test("heredoc inside $(…) with an apostrophe (Claude's commit form)", () => {
    const text = `git commit -m "$(cat <<'EOF'\nFix the user's bug && make restart\nEOF\n)" && git push`;
    const segs = parseShellCommand(text);
    expect(segs.map((s) => s.program)).toEqual(['git', 'git']);
    expect(segs[1]!.args).toEqual(['push']);
  });

  test('an unterminated heredoc swallows the rest', () => {
    expect(programs('cat <<EOF\nmake restart')).toEqual(['cat']);
  });
});

describe('substitutions are not top-level commands', () => {
  test('$(…) and backticks stay inside their word', () => {
    const s = one('echo $(make restart) `pytest`');
    expect(s.program).toBe('echo');
    expect(s.args).toEqual(['$(make restart)', '`pytest`']);
  });

  test('nested substitutions with quotes and parens', () => {
    expect(programs('echo "$(printf "%s" "$(date)")" ; ls')).toEqual(['echo', 'ls']);
    expect(programs('x=$( (cd a && pwd) ) ; make')).toEqual(['', 'make']); // an assignment has no program
    expect(programs('echo $((1 + (2*3))) && make')).toEqual(['echo', 'make']);
  });

  test('process substitution is a word', () => {
    expect(programs('diff <(git show HEAD:a) a && make')).toEqual(['diff', 'make']);
  });

  test('$VAR stays literal and marks the word dynamic', () => {
    const s = one('rm -f "$OUT/x" ${TMP:-/tmp}/y z');
    expect(s.args).toEqual(['-f', '$OUT/x', '${TMP:-/tmp}/y', 'z']);
    expect(s.argWords.map((w) => w.dynamic)).toEqual([false, true, true, false]);
  });
});

describe('quoting', () => {
  test('quotes and escapes are removed', () => {
    expect(one(`printf '%s\\n' "a \\"b\\" c" d\\ e $'x\\ty'`).args).toEqual(['%s\\n', 'a "b" c', 'd e', 'x\ty']);
  });

  test('unquoted globs are marked', () => {
    const s = one("rm *.pyc 'lit*.txt'");
    expect(s.argWords.map((w) => w.glob)).toEqual([true, false]);
  });

  test('unterminated quotes run to the end', () => {
    expect(one('echo "never closed && make').args).toEqual(['never closed && make']);
  });
});

describe('redirections', () => {
  test('targets and fds', () => {
    const s = one('cmd > out.txt 2>&1 >> app.log < in.txt &> all.log');
    expect(s.redirects.map((r) => [r.op, r.fd, r.target?.value])).toEqual([
      ['>', undefined, 'out.txt'],
      ['>&', '2', '1'],
      ['>>', undefined, 'app.log'],
      ['<', undefined, 'in.txt'],
      ['&>', undefined, 'all.log'],
    ]);
    expect(s.args).toEqual([]);
  });

  test('a redirection alone is a segment (truncation)', () => {
    const s = one(': > log.txt');
    expect(s.program).toBe(':');
    expect(parseShellCommand('> log.txt')[0]!.redirects[0]!.target!.value).toBe('log.txt');
  });
});

describe('unwrapping', () => {
  test.each([
    ['FOO=1 make restart', 'make', ['restart']],
    ['FOO=1 BAR="a b" make restart', 'make', ['restart']],
    ['sudo -E -u root make restart', 'make', ['restart']],
    ['env -i PATH=/bin A=1 make restart', 'make', ['restart']],
    ['timeout 60 pytest -x', 'pytest', ['-x']],
    ['timeout -s KILL --kill-after=5 2m pytest', 'pytest', []],
    ['nice -n 10 make', 'make', []],
    ['nohup make restart', 'make', ['restart']],
    ['time make test', 'make', ['test']],
    ['command make test', 'make', ['test']],
    ['exec make test', 'make', ['test']],
    ['stdbuf -oL -eL pytest', 'pytest', []],
    ['xargs -0 -n 1 sed -i s/a/b/', 'sed', ['-i', 's/a/b/']],
    ['bash -lc "make restart"', 'make', ['restart']],
    ['sh -c \'timeout 5 make restart\'', 'make', ['restart']],
    ['/bin/zsh -o pipefail -c "pytest -q"', 'pytest', ['-q']],
    ['npx -y vitest run', 'vitest', ['run']],
    ['npx prettier@3 --write a.ts', 'prettier', ['--write', 'a.ts']],
    ['npx @biomejs/biome check', 'biome', ['check']],
    ['pnpm exec tsc --noEmit', 'tsc', ['--noEmit']],
    ['pnpm --filter web exec vitest', 'vitest', []],
    ['pnpm dlx create-vite', 'create-vite', []],
    ['npm exec -- jest', 'jest', []],
    ['yarn dlx eslint .', 'eslint', ['.']],
    ['bunx tsc', 'tsc', []],
    ['uv run pytest -q', 'pytest', ['-q']],
    ['uv run --with pytest-xdist --frozen pytest -n 4', 'pytest', ['-n', '4']],
    ['uv run -m pytest', 'pytest', []],
    ['uv pip install -e .', 'pip', ['install', '-e', '.']],
    ['uvx ruff@0.6 check .', 'ruff', ['check', '.']],
    ['poetry run pytest', 'pytest', []],
    ['pipenv run python -m pytest', 'pytest', []],
    ['hatch run test:pytest', 'pytest', []],
    ['python -m pytest tests', 'pytest', ['tests']],
    ['python3.12 -u -m pip install x', 'pip', ['install', 'x']],
    ['.venv/bin/pytest tests/a.py', 'pytest', ['tests/a.py']],
    ['.venv/bin/python -m pytest', 'pytest', []],
    ['venv/bin/python3 -m mypy src', 'mypy', ['src']],
    ['./node_modules/.bin/vitest run', 'vitest', ['run']],
    ['/usr/bin/make restart', 'make', ['restart']],
    ['py.test -q', 'pytest', ['-q']],
    ['eval "make restart"', 'make', ['restart']],
    ['sudo timeout 30 env A=1 bash -lc "cd /srv && FOO=2 uv run pytest -x"', 'pytest', ['-x']],
  ])('%s → %s', (text, program, args) => {
    const segs = parseShellCommand(text);
    const last = segs[segs.length - 1]!;
    expect(last.program).toBe(program);
    expect(last.args).toEqual(args);
  });

  test('wrappers are recorded outermost first', () => {
    const segs = parseShellCommand('sudo timeout 30 bash -lc "uv run pytest"');
    expect(segs[0]!.wrappers).toEqual(['sudo', 'timeout', 'bash -c', 'uv run']);
    expect(segs[0]!.nested).toBe(true);
  });

  test('command -v looks a program up; it does not run it', () => {
    expect(one('command -v make').program).toBe('command');
  });

  test('bash running a script file is bash', () => {
    expect(one('bash scripts/restart.sh').program).toBe('bash');
  });

  test('a bash -c script splits into its own segments', () => {
    const segs = parseShellCommand('bash -c "make restart && make status" > log.txt');
    expect(segs.map((s) => normalizedText(s))).toEqual(['make restart', 'make status']);
    expect(segs[1]!.redirects.map((r) => r.target?.value)).toEqual(['log.txt']);
    for (const s of segs) expect(s.raw).toBe('bash -c "make restart && make status" > log.txt');
  });

  test('package-manager scripts are normalized', () => {
    expect(normalizedText(one('npm run test'))).toBe('npm test');
    expect(normalizedText(one('npm run-script test'))).toBe('npm test');
    expect(normalizedText(one('npm t'))).toBe('npm test');
    expect(normalizedText(one('pnpm run test'))).toBe('pnpm test');
    expect(normalizedText(one('pnpm --filter web run test'))).toBe('pnpm --filter web test');
    expect(normalizedText(one('yarn run test'))).toBe('yarn test');
    expect(normalizedText(one('bun run test'))).toBe('bun test');
    expect(normalizedText(one('npm test -- run'))).toBe('npm test -- run');
  });

  test('pure assignments have no program', () => {
    expect(one('FOO=1').program).toBe('');
  });
});

describe('directories', () => {
  test('cd applies to later segments of the same command', () => {
    const segs = parseShellCommand('cd packages/core && sed -i s/a/b/ src/x.ts; cd .. ; touch y');
    expect(segs.map((s) => s.dir)).toEqual([undefined, 'packages/core', 'packages/core', 'packages']);
  });

  test('a subshell cd does not leak', () => {
    const segs = parseShellCommand('(cd web && npm test) && touch x');
    expect(segs.map((s) => s.dir)).toEqual([undefined, 'web', undefined]);
  });

  test('cd to an unknown place makes relative paths unresolvable', () => {
    const segs = parseShellCommand('cd "$DIR" && rm x');
    expect(segs[1]!.dirUnknown).toBe(true);
    expect(parseShellCommand('cd && rm x')[1]!.dirUnknown).toBe(true);
    expect(parseShellCommand('cd ~/src && rm x')[1]!.dirUnknown).toBe(true);
  });

  test('absolute cd and env -C', () => {
    expect(parseShellCommand('cd /srv/app && make')[1]!.dir).toBe('/srv/app');
    expect(one('env -C sub make test').dir).toBe('sub');
  });
});
