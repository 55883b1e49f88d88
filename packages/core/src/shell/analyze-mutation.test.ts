import { describe, expect, test } from 'vitest';
import { analyzeMutation } from './analyze-mutation.ts';
import { analyzeRead } from './analyze-read.ts';
import { parseShellCommand } from './parse-shell-command.ts';

const mutation = (command: string) => {
  const all = parseShellCommand(command).map(analyzeMutation);
  return {
    mutates: all.some((m) => m.mutates),
    paths: all.flatMap((m) => m.paths),
    globs: all.flatMap((m) => m.globs),
    effects: all.flatMap((m) => m.targets.map((t) => `${t.effect}:${t.path}`)),
  };
};
const reads = (command: string) => parseShellCommand(command).flatMap(analyzeRead);

describe('read-only commands never mutate', () => {
  test.each([
    'cat src/a.py',
    'grep -rn foo src/a.py',
    'rg -n "x > y" src',
    'pytest tests/test_a.py',
    'ls -la src',
    'git diff src/a.py',
    'git status',
    'git log -p -- src/a.py',
    'git show HEAD:src/a.py',
    "sed -n '1,20p' src/a.py",
    'head -50 src/a.py',
    'python -m pytest ./tests/a.py teleclaude/x.py',
    'make status',
    'instrukt-ai-logs teleclaude --since 5m',
    'echo "rm -rf src" && true',
    'find . -name "*.py"',
    'wc -l src/*.py',
    'npm test',
    'git checkout -b feature && git add .',
    'cmd 2>&1 >/dev/null',
    'prettier --check src',
    'black --check src',
    'ruff check src',
    'patch --dry-run -p1 < fix.diff',
    'git apply --check fix.diff',
    'git restore --staged a.py',
    'git rm -n a.py',
  ])('%s', (command) => {
    const m = mutation(command);
    // `git checkout -b` switches branches (unknown targets) but names no file.
    expect(m.paths).toEqual([]);
    if (!command.startsWith('git checkout')) expect(m.mutates).toBe(false);
  });
});

describe('mutating commands return only their targets', () => {
  test.each([
    ["sed -i 's/a/b/' src/a.py src/b.py", ['edit:src/a.py', 'edit:src/b.py']],
    ["sed -i '' -e 's/a/b/' src/a.py", ['edit:src/a.py']],
    ["sed -i.bak 's/a/b/' a.py", ['edit:a.py']],
    ["sed --in-place=.orig -e 's/a/b/' -e 's/c/d/' a.py", ['edit:a.py']],
    ["perl -pi -e 's/a/b/' a.pl b.pl", ['edit:a.pl', 'edit:b.pl']],
    ["perl -i.bak -pe 's/a/b/' a.pl", ['edit:a.pl']],
    ["gawk -i inplace '{print}' a.txt", ['edit:a.txt']],
    ['echo hi > out.txt', ['write:out.txt']],
    ['echo hi >> log.txt', ['append:log.txt']],
    ['make restart | tee restart.log', ['write:restart.log']],
    ['make | tee -a build.log other.log', ['append:build.log', 'append:other.log']],
    ['mv a.py b.py', ['move:a.py', 'move:b.py']],
    ['mv -t dest/ a.py b.py', ['move:a.py', 'move:b.py', 'move:dest/']],
    ['cp -r src/a.py backup/a.py', ['write:backup/a.py']],
    ['cp a.py b.py c/', ['write:c/']],
    ['rm -rf build dist/x.js', ['delete:build', 'delete:dist/x.js']],
    ['touch -d yesterday new.py', ['create:new.py']],
    ['mkdir -p a/b && touch a/b/c.py', ['create:a/b', 'create:a/b/c.py']],
    ['truncate -s 0 log.txt', ['write:log.txt']],
    ['ln -s target.py link.py', ['create:link.py']],
    ['install -m 644 a.conf /etc/a.conf', ['write:/etc/a.conf']],
    ['chmod +x scripts/run.sh', ['other:scripts/run.sh']],
    ['dd if=/dev/zero of=disk.img bs=1M count=1', ['write:disk.img']],
    ['curl -o data.json https://x', ['write:data.json']],
    ['git mv old.py new.py', ['move:old.py', 'move:new.py']],
    ['git rm --cached secret.env', ['other:secret.env']],
    ['git restore src/a.py', ['write:src/a.py']],
    ['git checkout -- src/a.py src/b.py', ['write:src/a.py', 'write:src/b.py']],
    ['git -C sub checkout -- a.py', ['write:sub/a.py']],
    ['prettier --write src/a.ts', ['other:src/a.ts']],
    ['black src/a.py', ['other:src/a.py']],
    ['ruff format src/a.py', ['other:src/a.py']],
    ['ruff check --fix src/a.py', ['other:src/a.py']],
    ['eslint --fix src/a.ts', ['other:src/a.ts']],
    ['gofmt -w main.go', ['other:main.go']],
    ['cat > src/new.py <<EOF\nprint(1)\nEOF', ['write:src/new.py']],
    ["apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** Add File: b.py\n+z\n*** Delete File: c.py\n*** Update File: d.py\n*** Move to: e.py\n*** End Patch\nPATCH", ['edit:a.py', 'create:b.py', 'delete:c.py', 'move:d.py', 'move:e.py']],
    ['git apply <<EOF\ndiff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\nEOF', ['edit:x.py']],
    ['patch -p1 <<EOF\n--- a/src/y.py\n+++ b/src/y.py\n@@ -1 +1 @@\n-a\n+b\nEOF', ['edit:src/y.py']],
    ['bash -lc "sed -i s/a/b/ a.py"', ['edit:a.py']],
    ['sudo tee /etc/hosts < hosts', ['write:/etc/hosts']],
    ['git diff | xargs sed -i s/a/b/', []],
  ])('%s', (command, effects) => {
    const m = mutation(command);
    expect(m.mutates).toBe(true);
    expect(m.effects).toEqual(effects);
  });

  test('globs and dynamic paths', () => {
    const m = mutation('rm *.pyc "$OUT/x" build/*.o');
    expect(m.globs).toEqual(['*.pyc', 'build/*.o']);
    expect(m.paths).toEqual([]);
  });

  test('redirects to /dev and fd duplications are not files', () => {
    expect(mutation('cmd > /dev/null 2>&1 >&2').mutates).toBe(false);
  });

  test('commands that change unknown files mutate without paths', () => {
    for (const c of ['git stash pop', 'git reset --hard', 'git pull', 'npm install', 'pnpm add zod', 'uv sync', 'cargo update', 'go mod tidy', 'find . -name "*.orig" -delete', 'find . -exec rm {} +']) {
      const m = mutation(c);
      expect(m.mutates, c).toBe(true);
      expect(m.paths, c).toEqual([]);
    }
  });
});

describe('analyzeRead', () => {
  test.each([
    ['cat a.py b.py', ['a.py', 'b.py']],
    ["sed -n '10,40p' src/a.py", ['src/a.py']],
    ['nl -ba src/a.py | sed -n 1,80p', ['src/a.py']],
    ['head -n 50 a.py', ['a.py']],
    ['tail -f log.txt', ['log.txt']],
    ['rg -n "def main" src/a.py', ['src/a.py']],
    ['rg -n pattern src', []],
    ['grep -e foo -e bar a.py', ['a.py']],
    ["awk '{print $1}' data.csv", ['data.csv']],
    ['git show HEAD:src/a.py', ['src/a.py']],
    ['jq .name package.json', ['package.json']],
    ["sed -i 's/a/b/' a.py", []],
    ['cat "$F" *.py', []],
  ])('%s', (command, expected) => {
    expect(reads(command)).toEqual(expected);
  });
});
