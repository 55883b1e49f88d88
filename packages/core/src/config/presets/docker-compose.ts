import type { Preset } from './preset.ts';

const VERIFY = {
  evidence: ['docker compose ps', 'docker-compose ps', 'docker compose logs', 'docker-compose logs', 'docker ps'],
  action: 'Check the services came up healthy: `docker compose ps` (and `docker compose logs --since {window}`)',
};

export const DOCKER_COMPOSE: Preset = {
  id: 'docker-compose',
  description: 'Services run with Docker Compose (compose.yaml / docker-compose.yml)',
  detect: ['compose.yaml', 'compose.yml', 'docker-compose.yaml', 'docker-compose.yml'],
  config: {
    categories: [
      {
        id: 'compose-file',
        label: 'Compose file',
        include: ['{docker-,}compose{,.*}.{yml,yaml}', '**/{docker-,}compose{,.*}.{yml,yaml}', '.env'],
        action: 'Apply the compose changes: `docker compose up -d`',
        evidence: ['docker compose up', 'docker-compose up'],
        verify: VERIFY,
        precedence: 30,
      },
      {
        id: 'container-image',
        label: 'Container image',
        include: ['**/Dockerfile', '**/Dockerfile.*', '**/*.dockerfile', '**/Containerfile', '**/.dockerignore'],
        action: 'Rebuild and restart the services: `docker compose up -d --build`',
        evidence: [
          'docker compose up --build',
          'docker-compose up --build',
          'docker compose build',
          'docker-compose build',
          'docker build',
          'docker buildx build',
        ],
        verify: VERIFY,
        precedence: 30,
      },
    ],
  },
};
