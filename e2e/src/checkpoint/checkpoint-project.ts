import { CHECKPOINT_PREFIX } from '../harness/agent-session.ts';

/** The test command of the project; the config names it as the evidence of the calculator category. */
export const TEST_COMMAND = 'node calc.test.mjs';
/** The daemon's restart command: the action and the evidence of the daemon category. */
export const RESTART_COMMAND = 'make restart';
export { CHECKPOINT_PREFIX };

export interface ProjectOptions {
  /**
   * `loopGuard.minTurnSeconds` of the project config: the interval between two checkpoints of one
   * turn (every turn's first checkpoint is never held back). The tests' default is 0; `'default'`
   * leaves the key out, so the built-in 30 s interval applies.
   */
  readonly minTurnSeconds?: number | 'default';
  /** Keys added to the project config (e.g. a privileged key the user has not trusted). */
  readonly extraConfig?: Readonly<Record<string, unknown>>;
}

/**
 * The project configuration of the route tests: two categories with deterministic actions, so the
 * expected message does not depend on preset detection:
 * - `daemon/**` is daemon code: ``Run `make restart` ``, proven by `make restart`;
 * - the calculator's modules need ``Run the tests: `node calc.test.mjs` ``, proven by that command.
 */
export function projectConfig(options: ProjectOptions = {}): Record<string, unknown> {
  const minTurnSeconds = options.minTurnSeconds ?? 0;
  return {
    ...(minTurnSeconds === 'default' ? {} : { loopGuard: { minTurnSeconds } }),
    ...options.extraConfig,
    categories: [
      { id: 'daemon', label: 'daemon code', include: ['daemon/**'], action: `Run \`${RESTART_COMMAND}\``, evidence: [RESTART_COMMAND] },
      {
        id: 'calc',
        label: 'calculator code',
        include: ['*.mjs', 'src/**/*.mjs'],
        action: `Run the tests: \`${TEST_COMMAND}\``,
        evidence: [TEST_COMMAND],
      },
    ],
  };
}

/**
 * The temp repository every route test starts from (committed before the agent starts): a tiny
 * calculator whose test fails (`add` subtracts), a "daemon" module, a Makefile whose `restart`
 * target stands in for restarting the daemon, and `.agent-checkpoint.json`.
 */
export function projectFiles(options: ProjectOptions = {}): Record<string, string> {
  return {
    'README.md': '# calc\n\nA tiny calculator with a daemon, used by the agent-checkpoint route tests.\n',
    '.agent-checkpoint.json': `${JSON.stringify(projectConfig(options), null, 2)}\n`,
    Makefile: 'restart:\n\t@echo daemon restarted\n',
    'calc.mjs': 'export function add(a, b) {\n  return a - b;\n}\n',
    'calc.test.mjs': [
      "import { add } from './calc.mjs';",
      '',
      'if (add(2, 2) !== 4) {',
      '  console.error(`add(2, 2) returned ${add(2, 2)}, expected 4`);',
      '  process.exit(1);',
      '}',
      "console.log('ok: add');",
      '',
    ].join('\n'),
    'daemon/server.mjs': "export const greeting = 'hello';\n",
    'src/format.mjs': "export function formatTotal(n) {\n  return 'Total: ' + n;\n}\n",
    'src/report.mjs': "import { formatTotal } from './format.mjs';\nexport const report = (n) => formatTotal(n);\n",
  };
}
