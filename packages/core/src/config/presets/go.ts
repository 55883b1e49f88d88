import type { Preset } from './preset.ts';

export const GO: Preset = {
  id: 'go',
  description: 'Go module (go.mod)',
  detect: ['go.mod', 'go.work'],
  config: {
    categories: [
      {
        id: 'go-modules',
        label: 'Go module',
        include: ['go.mod', '**/go.mod', 'go.sum', '**/go.sum', 'go.work', 'go.work.sum'],
        exclude: ['vendor/**'],
        action: 'Tidy the module files: `go mod tidy`',
        evidence: ['go mod tidy', 'go get', 'go work sync', 'go mod download'],
        precedence: 20,
      },
      {
        id: 'go-source',
        label: 'Go sources',
        include: ['**/*.go'],
        exclude: ['vendor/**'],
        action: '',
      },
    ],
    followUps: [
      {
        id: 'go-tests',
        action: 'Run the tests: `go test ./...`',
        evidence: ['go test', 'gotestsum', 'richgo test', 'make test'],
        triggeredBy: ['go-source', 'go-modules'],
        precedence: 100,
      },
    ],
  },
};
