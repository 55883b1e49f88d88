import { describe, expect, test } from 'vitest';
import { abs, configWith, context, edit, files, read, shell, timeline } from '../../engine/build-test-timeline.ts';
import { runHeuristics } from '../../engine/run-heuristics.ts';
import type { ToolCall } from '../../timeline/tool-call.ts';
import { PRESETS } from './index.ts';

/** Required action texts after the turn read+edited `paths` and then ran `commands`. */
function actions(preset: string, paths: readonly string[], commands: readonly string[] = []): string[] {
  const calls: ToolCall[] = [...paths.flatMap((p) => [read(abs(p)), edit(abs(p))]), ...commands.map((c) => shell(c))];
  const r = runHeuristics(files(paths), timeline(calls), context({ elapsedSeconds: 200 }), configWith({ extends: preset }));
  return r.requiredActions.map((a) => a.text);
}

describe('node presets', () => {
  test('source change asks for type-check and tests in the detected manager', () => {
    expect(actions('node-pnpm', ['src/a.ts'])).toEqual([
      "Type-check: `pnpm exec tsc --noEmit` (or the project's typecheck script)",
      'Run the tests: `pnpm test`',
    ]);
    expect(actions('node-npm', ['src/a.js'])).toEqual(['Run the tests: `npm test`']);
    expect(actions('node-yarn', ['src/a.tsx'])[1]).toBe('Run the tests: `yarn test`');
    expect(actions('node-bun', ['src/a.ts'])[1]).toBe('Run the tests: `bun run test`');
  });

  test('manifest change asks for an install first', () => {
    expect(actions('node-pnpm', ['package.json'])[0]).toBe('Install dependencies so the lockfile and node_modules match: `pnpm install`');
    expect(actions('node-pnpm', ['packages/web/package.json'], ['pnpm install'])).toEqual(['Run the tests: `pnpm test`']);
  });

  test('usual commands satisfy them, whichever runner form is used', () => {
    for (const cmds of [
      ['pnpm -r typecheck', 'pnpm test'],
      ['pnpm run build', 'npx vitest run'],
      ['pnpm exec tsc --noEmit && pnpm --filter web run test'],
      ['tsc -p . ', 'node --test'],
    ]) {
      expect(actions('node-pnpm', ['src/a.ts'], cmds), cmds.join(' ; ')).toEqual([]);
    }
  });

  test('docs and node_modules do not trigger', () => {
    expect(actions('node-pnpm', ['README.md', 'docs/x.md'])).toEqual([]);
  });
});

describe('python presets', () => {
  test('uv wording and evidence', () => {
    expect(actions('python-uv', ['app/main.py'])).toEqual(['Run the tests: `uv run pytest`']);
    expect(actions('python-uv', ['pyproject.toml'])).toEqual(['Install updated dependencies: `uv sync`', 'Run the tests: `uv run pytest`']);
    expect(actions('python-uv', ['pyproject.toml', 'app/main.py'], ['uv sync', '.venv/bin/python -m pytest -q'])).toEqual([]);
  });

  test('pip wording; requirements files are dependencies even if *.txt were docs', () => {
    expect(actions('python', ['requirements-dev.txt'])[0]).toBe('Install updated dependencies: `pip install -e .` (or `pip install -r requirements.txt`)');
    expect(actions('python', ['requirements.txt'], ['python3 -m pip install -r requirements.txt', 'pytest'])).toEqual([]);
  });
});

describe('rust, go, docker-compose', () => {
  test('rust', () => {
    expect(actions('rust', ['src/lib.rs'])).toEqual(['Run the tests: `cargo test`']);
    expect(actions('rust', ['Cargo.toml'])).toEqual(['Build so Cargo.lock and the build match the manifest: `cargo build`', 'Run the tests: `cargo test`']);
    expect(actions('rust', ['Cargo.toml', 'src/lib.rs'], ['cargo test --all'])).toEqual([]);
  });

  test('go', () => {
    expect(actions('go', ['cmd/x/main.go'])).toEqual(['Run the tests: `go test ./...`']);
    expect(actions('go', ['go.mod'], ['go mod tidy', 'go test ./...'])).toEqual([]);
  });

  test('docker-compose: rebuild, then check the services', () => {
    expect(actions('docker-compose', ['api/Dockerfile'])).toEqual(['Rebuild and restart the services: `docker compose up -d --build`']);
    expect(actions('docker-compose', ['compose.yaml'], ['docker compose up -d'])).toEqual([
      'Check the services came up healthy: `docker compose ps` (and `docker compose logs --since 4m`)',
    ]);
    expect(actions('docker-compose', ['api/Dockerfile', 'compose.yaml'], ['docker compose up -d --build', 'docker compose ps'])).toEqual([]);
  });

  test('presets combine without duplicating test actions', () => {
    const cfg = configWith({ extends: ['node-pnpm', 'python-uv'] });
    const paths = ['web/src/a.ts', 'api/app.py'];
    const calls = paths.flatMap((p) => [read(abs(p)), edit(abs(p))]);
    const r = runHeuristics(files(paths), timeline(calls), context(), cfg);
    expect(r.requiredActions.map((a) => a.text)).toEqual([
      "Type-check: `pnpm exec tsc --noEmit` (or the project's typecheck script)",
      'Run the tests: `pnpm test`',
      'Run the tests: `uv run pytest`',
    ]);
  });
});

test('a test file run directly counts as running the tests', () => {
  expect(actions('node-npm', ['calc.mjs'], ['node calc.test.mjs'])).toEqual([]);
  expect(actions('node-pnpm', ['src/a.ts'], ['pnpm exec tsc --noEmit', 'npx tsx src/a.spec.ts'])).toEqual([]);
  expect(actions('python', ['calc.py'], ['python3 tests/test_calc.py'])).toEqual([]);
  expect(actions('node-npm', ['calc.mjs'], ['node calc.mjs'])).toEqual(['Run the tests: `npm test`']);
});

describe('every preset', () => {
  // An agent's shell may refuse to kill by pattern: Copilot CLI 1.0.102 refuses `pkill`, `killall` and
  // `kill` without a numeric PID. An action must be one every agent can do (find the PID, then kill it).
  test('asks for no kill by pattern (pkill, killall)', () => {
    const texts = Object.values(PRESETS).flatMap((preset) => [
      ...(preset.config.categories ?? []).flatMap((c) => [c.action ?? '', c.verify?.action ?? '']),
      ...(preset.config.followUps ?? []).map((f) => f.action ?? ''),
    ]);
    expect(texts.filter((t) => /\b(pkill|killall)\b/.test(t))).toEqual([]);
  });
});
