import os from 'node:os';
import path from 'node:path';
import { RUN_MARKER_VAR } from './process-group.ts';

/**
 * The environment every CLI runs with, built from scratch rather than inherited: the invoking
 * shell may carry real API keys, proxies (which would route loopback traffic elsewhere), CI flags
 * or `NODE_OPTIONS` that change how the CLIs behave. Only the agent-specific variables from the
 * agents docs are added on top (see each runner).
 */
export function isolatedEnv(workspace: { home: string; tmp: string; runId: string }): Record<string, string> {
  const nodeDir = path.dirname(process.execPath);
  return {
    PATH: [nodeDir, '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'].join(':'),
    HOME: workspace.home,
    USER: os.userInfo().username,
    LOGNAME: os.userInfo().username,
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    TERM: 'xterm-256color',
    TMPDIR: workspace.tmp,
    NO_PROXY: '127.0.0.1,localhost,::1',
    no_proxy: '127.0.0.1,localhost,::1',
    GIT_CONFIG_NOSYSTEM: '1',
    [RUN_MARKER_VAR]: workspace.runId,
  };
}
