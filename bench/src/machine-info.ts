import { execFileSync } from 'node:child_process';
import { cpus, freemem, loadavg, release, totalmem } from 'node:os';

/** The machine a result was measured on; results from different machines are not comparable. */
export interface MachineInfo {
  readonly cpuModel: string;
  readonly cores: number;
  readonly node: string;
  readonly platform: string;
  readonly kernel: string;
  readonly totalMemMiB: number;
  readonly freeMemMiB: number;
  readonly git: string;
  readonly tmux: string;
  /** ISO time the run started. */
  readonly date: string;
  /** 1, 5 and 15 minute load averages when the run started. */
  readonly loadAverageAtStart: readonly [number, number, number];
}

export function readMachineInfo(): MachineInfo {
  const cpuList = cpus();
  const [one = 0, five = 0, fifteen = 0] = loadavg();
  return {
    cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
    cores: cpuList.length,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    kernel: release(),
    totalMemMiB: Math.round(totalmem() / 1024 / 1024),
    freeMemMiB: Math.round(freemem() / 1024 / 1024),
    git: versionOf('git', ['--version']),
    tmux: versionOf('tmux', ['-V']),
    date: new Date().toISOString(),
    loadAverageAtStart: [round2(one), round2(five), round2(fifteen)],
  };
}

/** Current 1-minute load average divided by the core count: above ~0.5 numbers are noisy. */
export function loadPerCore(): { readonly load1: number; readonly perCore: number } {
  const load1 = loadavg()[0] ?? 0;
  return { load1: round2(load1), perCore: round2(load1 / Math.max(1, cpus().length)) };
}

function versionOf(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
  } catch {
    return 'missing';
  }
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
