import { TEST_COMMANDS } from '../default-config.ts';
import type { Preset } from './preset.ts';

type NodeManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

const COMMANDS: Readonly<Record<NodeManager, { readonly install: string; readonly test: string; readonly exec: string }>> = {
  npm: { install: 'npm install', test: 'npm test', exec: 'npx' },
  pnpm: { install: 'pnpm install', test: 'pnpm test', exec: 'pnpm exec' },
  yarn: { install: 'yarn install', test: 'yarn test', exec: 'yarn exec' },
  bun: { install: 'bun install', test: 'bun run test', exec: 'bunx' },
};

/** Any manager's install counts: agents mix them up, and a lockfile refresh is what matters. */
const INSTALL_EVIDENCE: readonly string[] = [
  'npm install',
  'npm i',
  'npm ci',
  'npm uninstall',
  'npm update',
  'pnpm install',
  'pnpm i',
  'pnpm add',
  'pnpm remove',
  'pnpm update',
  'yarn install',
  'yarn add',
  'yarn remove',
  'yarn up',
  '/^yarn$/',
  'bun install',
  'bun i',
  'bun add',
  'bun remove',
];

const TYPECHECK_EVIDENCE: readonly string[] = [
  'tsc',
  'vue-tsc',
  'tsgo',
  'svelte-check',
  '/^(npm|pnpm|yarn|bun)\\b.*\\b(typecheck|type-check|check-types|tsc|build)\\b/',
  'turbo typecheck',
  'turbo build',
  'nx typecheck',
  'nx build',
];

function nodeConfig(manager: NodeManager): Preset['config'] {
  const c = COMMANDS[manager];
  return {
    categories: [
      {
        id: 'node-dependencies',
        label: 'Node package manifest',
        include: [
          'package.json',
          '**/package.json',
          'package-lock.json',
          'npm-shrinkwrap.json',
          'pnpm-lock.yaml',
          'pnpm-workspace.yaml',
          'yarn.lock',
          '.yarnrc.yml',
          'bun.lockb',
          'bun.lock',
          '.npmrc',
        ],
        exclude: ['**/node_modules/**'],
        action: `Install dependencies so the lockfile and node_modules match: \`${c.install}\``,
        evidence: [...INSTALL_EVIDENCE],
        precedence: 20,
      },
      {
        id: 'typescript',
        label: 'TypeScript',
        include: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts', '**/tsconfig.json', '**/tsconfig.*.json'],
        exclude: ['**/node_modules/**'],
        action: `Type-check: \`${c.exec} tsc --noEmit\` (or the project's typecheck script)`,
        evidence: [...TYPECHECK_EVIDENCE],
        precedence: 40,
      },
      {
        id: 'node-source',
        label: 'JavaScript/TypeScript sources',
        include: ['**/*.{js,jsx,mjs,cjs,ts,tsx,mts,cts,vue,svelte,astro}'],
        exclude: ['**/node_modules/**', '**/dist/**'],
        action: '',
      },
    ],
    followUps: [
      {
        id: 'node-tests',
        action: `Run the tests: \`${c.test}\``,
        evidence: [...TEST_COMMANDS],
        triggeredBy: ['node-source', 'typescript', 'node-dependencies'],
        precedence: 100,
      },
    ],
  };
}

/** Generic Node project (no lockfile yet): npm wording. */
export const NODE: Preset = {
  id: 'node',
  description: 'Node.js / TypeScript project (package.json); npm wording',
  detect: ['package.json'],
  config: nodeConfig('npm'),
};

function variant(manager: NodeManager, detect: readonly string[]): Preset {
  return {
    id: `node-${manager}`,
    description: `Node.js / TypeScript project managed with ${manager} (chosen by its lockfile)`,
    detect,
    config: { extends: 'node', ...nodeConfig(manager) },
  };
}

export const NODE_NPM = variant('npm', ['package-lock.json', 'npm-shrinkwrap.json']);
export const NODE_PNPM = variant('pnpm', ['pnpm-lock.yaml', 'pnpm-workspace.yaml']);
export const NODE_YARN = variant('yarn', ['yarn.lock']);
export const NODE_BUN = variant('bun', ['bun.lockb', 'bun.lock']);
