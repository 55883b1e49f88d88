import type { Preset } from './preset.ts';

type PythonManager = 'pip' | 'uv' | 'poetry';

const COMMANDS: Readonly<Record<PythonManager, { readonly install: string; readonly test: string }>> = {
  pip: { install: '`pip install -e .` (or `pip install -r requirements.txt`)', test: 'pytest' },
  uv: { install: '`uv sync`', test: 'uv run pytest' },
  poetry: { install: '`poetry install`', test: 'poetry run pytest' },
};

const INSTALL_EVIDENCE: readonly string[] = [
  'uv sync',
  'uv add',
  'uv remove',
  'pip install',
  'pip3 install',
  'poetry install',
  'poetry add',
  'poetry remove',
  'poetry update',
  'pipenv install',
  'pdm install',
  'pdm add',
  'pdm sync',
  'hatch env create',
  'make install',
];

const TEST_EVIDENCE: readonly string[] = [
  'pytest',
  'tox',
  'nox',
  'unittest',
  'hatch test',
  'make test',
  'make check',
  // A test module run directly: `python tests/test_calc.py`.
  '/^python[\\d.]*\\b.*\\btest_\\w+\\.py\\b/',
];

function pythonConfig(manager: PythonManager): Preset['config'] {
  const c = COMMANDS[manager];
  return {
    categories: [
      {
        id: 'python-dependencies',
        label: 'Python dependency manifest',
        include: [
          'pyproject.toml',
          '**/pyproject.toml',
          'requirements*.txt',
          '**/requirements*.txt',
          'requirements/*.txt',
          'setup.py',
          'setup.cfg',
          'Pipfile',
          'Pipfile.lock',
          'uv.lock',
          'poetry.lock',
        ],
        exclude: ['**/.venv/**', '**/node_modules/**'],
        action: `Install updated dependencies: ${c.install}`,
        evidence: [...INSTALL_EVIDENCE],
        precedence: 20,
      },
      {
        id: 'python-source',
        label: 'Python sources',
        include: ['**/*.py', '**/*.pyi'],
        exclude: ['**/.venv/**', '**/venv/**'],
        action: '',
      },
    ],
    followUps: [
      {
        id: 'python-tests',
        action: `Run the tests: \`${c.test}\``,
        evidence: [...TEST_EVIDENCE],
        triggeredBy: ['python-source', 'python-dependencies'],
        precedence: 100,
      },
    ],
  };
}

export const PYTHON: Preset = {
  id: 'python',
  description: 'Python project (pyproject.toml, setup.py or requirements.txt); pip wording',
  detect: ['pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'Pipfile'],
  config: pythonConfig('pip'),
};

export const PYTHON_UV: Preset = {
  id: 'python-uv',
  description: 'Python project managed with uv (uv.lock)',
  detect: ['uv.lock'],
  config: { extends: 'python', ...pythonConfig('uv') },
};

export const PYTHON_POETRY: Preset = {
  id: 'python-poetry',
  description: 'Python project managed with Poetry (poetry.lock)',
  detect: ['poetry.lock'],
  config: { extends: 'python', ...pythonConfig('poetry') },
};
