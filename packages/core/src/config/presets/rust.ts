import type { Preset } from './preset.ts';

export const RUST: Preset = {
  id: 'rust',
  description: 'Rust / Cargo project (Cargo.toml)',
  detect: ['Cargo.toml'],
  config: {
    categories: [
      {
        id: 'rust-manifest',
        label: 'Cargo manifest',
        include: ['Cargo.toml', '**/Cargo.toml', 'Cargo.lock', 'rust-toolchain', 'rust-toolchain.toml'],
        exclude: ['target/**'],
        action: 'Build so Cargo.lock and the build match the manifest: `cargo build`',
        evidence: ['cargo build', 'cargo check', 'cargo test', 'cargo clippy', 'cargo run', 'cargo nextest', 'cargo update', 'cargo add', 'cargo remove', 'cargo fetch', 'cargo generate-lockfile'],
        precedence: 20,
      },
      {
        id: 'rust-source',
        label: 'Rust sources',
        include: ['**/*.rs'],
        exclude: ['target/**'],
        action: '',
      },
    ],
    followUps: [
      {
        id: 'rust-tests',
        action: 'Run the tests: `cargo test`',
        evidence: ['cargo test', 'cargo nextest', 'make test'],
        triggeredBy: ['rust-source', 'rust-manifest'],
        precedence: 100,
      },
    ],
  },
};
