#!/usr/bin/env node
// Test-only probe for agent hooks and Codex `notify`. Plain JavaScript with no dependencies so
// every agent can start it with `node` quickly.
//
//   node probe-hook.mjs hook <config.json>     (stdin: the agent's hook payload)
//   node probe-hook.mjs notify <config.json> <payload-json>   (Codex appends the payload argv)
//
// config.json: {
//   "log": "/abs/hooks.jsonl",                 one JSON line per invocation is appended here
//   "blockOnce": {"reason": "...", "decision": "block"|"deny", "style": "json"|"exit2"},
//                                             first invocation blocks, later ones pass
//   "exec": "shell command",                  instead of deciding itself: run this command with
//                                             the same stdin/env/cwd, relay its stdout, stderr
//                                             and exit code, and record them with the command's
//                                             wall time (durationMs: spawn to exit, as the agent
//                                             would see it without the probe)
//   "snapshotDir": "/abs/dir"                 copy payload.transcript_path there once the hook
//                                             decided (<mode>-<n>.<ext>): the transcript as
//                                             the hook saw it, before the agent writes on. In
//                                             notify mode, the Codex rollout of the payload's
//                                             thread ($CODEX_HOME/sessions/**/rollout-*-<id>.jsonl).
//                                             Claude's subagent transcripts next to it
//                                             (<transcript minus .jsonl>/subagents/) are copied
//                                             along, to <mode>-<n>/subagents/, where readers look.
//                                             A Codex rollout whose day directory holds rollouts
//                                             of its subagent threads (session_meta
//                                             parent_thread_id, transitively) is copied with them
//                                             to <mode>-<n>/sessions/YYYY/MM/DD/, the layout the
//                                             Codex reader finds them in.
// }
//
// Each log line: {n, at, mode, event, cwd, argv, env, payload, stdinRaw?, transcriptSizeAtHook,
// transcriptSnapshot?, response: {action, stdout, stderr, exitCode, durationMs?}}. Credentials in
// env are redacted.
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

const [mode, configPath, notifyArg] = process.argv.slice(2);
if ((mode !== 'hook' && mode !== 'notify') || configPath === undefined) {
  process.stderr.write('usage: probe-hook.mjs hook|notify <config.json> [payload]\n');
  process.exit(0); // never break the agent, even when misconfigured
}

const config = JSON.parse(readFileSync(configPath, 'utf8'));
const stdinRaw = mode === 'hook' ? readStdin() : (notifyArg ?? '');
const payload = parseJson(stdinRaw);
const previous = readLog(config.log);

let response;
if (mode === 'notify') {
  response = { action: 'record', stdout: '', stderr: '', exitCode: 0 };
} else if (typeof config.exec === 'string') {
  const started = process.hrtime.bigint();
  const run = spawnSync('/bin/sh', ['-c', config.exec], { input: stdinRaw, encoding: 'utf8', env: process.env, maxBuffer: 64 << 20 });
  const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
  response = { action: 'exec', stdout: run.stdout ?? '', stderr: run.stderr ?? '', exitCode: run.status ?? 1, durationMs: Math.round(durationMs * 10) / 10 };
} else if (config.blockOnce && !previous.some((entry) => entry.response?.action === 'block')) {
  const { reason, decision = 'block', style = 'json' } = config.blockOnce;
  response =
    style === 'exit2'
      ? { action: 'block', stdout: '', stderr: reason, exitCode: 2 }
      : { action: 'block', stdout: JSON.stringify({ decision, reason }), stderr: '', exitCode: 0 };
} else {
  response = { action: 'pass', stdout: '', stderr: '', exitCode: 0 };
}

const transcriptPath =
  typeof payload?.transcript_path === 'string'
    ? payload.transcript_path
    : typeof payload?.transcriptPath === 'string' // Copilot CLI's camelCase payload
      ? payload.transcriptPath
      : mode === 'notify'
        ? findCodexRollout(payload?.['thread-id'])
        : undefined;
const transcriptSnapshot = typeof config.snapshotDir === 'string' && transcriptPath !== undefined ? snapshot(transcriptPath, config.snapshotDir, previous.length + 1) : undefined;
const entry = {
  n: previous.length + 1,
  at: new Date().toISOString(),
  mode,
  event: payload?.hook_event_name ?? payload?.type ?? null,
  cwd: process.cwd(),
  argv: process.argv.slice(2, 4),
  env: redact(process.env),
  payload,
  ...(payload === null ? { stdinRaw } : {}),
  transcriptSizeAtHook: transcriptPath === undefined ? null : fileSize(transcriptPath),
  ...(transcriptSnapshot === undefined ? {} : { transcriptSnapshot }),
  response,
};
appendFileSync(config.log, `${JSON.stringify(entry)}\n`);

if (response.stdout) process.stdout.write(response.stdout);
if (response.stderr) process.stderr.write(response.stderr);
process.exitCode = response.exitCode;

function readStdin() {
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function readLog(file) {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

function findCodexRollout(threadId) {
  const home = process.env.CODEX_HOME;
  if (typeof threadId !== 'string' || !/^[0-9a-f-]+$/i.test(threadId) || home === undefined) return undefined;
  try {
    const sessions = join(home, 'sessions');
    const match = readdirSync(sessions, { recursive: true }).find((name) => String(name).endsWith(`-${threadId}.jsonl`));
    return match === undefined ? undefined : join(sessions, String(match));
  } catch {
    return undefined;
  }
}

/** A Codex rollout's subagent rollouts in its day directory, transitively (by session_meta parent_thread_id). */
function codexSubagentRollouts(file) {
  const day = dirname(file);
  if (!/\/sessions\/\d{4}\/\d{2}\/\d{2}$/.test(day)) return [];
  const threadOf = (name) => /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(name)?.[1];
  const parents = new Set([threadOf(basename(file))].filter(Boolean));
  const parentOf = new Map();
  try {
    for (const name of readdirSync(day)) {
      if (!name.startsWith('rollout-') || name === basename(file)) continue;
      const first = readFileSync(join(day, name), 'utf8').split('\n', 1)[0] ?? '';
      const parent = /"parent_thread_id":"([0-9a-f-]{36})"/.exec(first)?.[1];
      if (parent !== undefined) parentOf.set(name, parent);
    }
  } catch {
    return [];
  }
  const found = [];
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, parent] of parentOf) {
      if (!parents.has(parent) || found.includes(name)) continue;
      found.push(name);
      parents.add(threadOf(name));
      grew = true;
    }
  }
  return found.map((name) => join(day, name));
}

function snapshot(file, dir, n) {
  const children = codexSubagentRollouts(file);
  if (children.length > 0) {
    const day = dirname(file);
    const target = join(dir, `${mode}-${n}`, 'sessions', ...day.split('/').slice(-3));
    try {
      mkdirSync(target, { recursive: true });
      for (const source of [file, ...children]) copyFileSync(source, join(target, basename(source)));
      return join(target, basename(file));
    } catch {
      return null;
    }
  }
  const ext = extname(file) || '.jsonl';
  const target = join(dir, `${mode}-${n}${ext}`);
  try {
    copyFileSync(file, target);
  } catch {
    return null;
  }
  // Claude keeps a session's subagent transcripts in <session>/subagents/ beside <session>.jsonl.
  const subagents = join(file.slice(0, file.length - extname(file).length), 'subagents');
  try {
    if (existsSync(subagents)) cpSync(subagents, join(dir, `${mode}-${n}`, 'subagents'), { recursive: true, verbatimSymlinks: true });
  } catch {
    // the main snapshot still stands
  }
  return target;
}

function fileSize(file) {
  try {
    return statSync(file).size;
  } catch {
    return null;
  }
}

function redact(env) {
  const out = {};
  for (const [key, value] of Object.entries(env)) {
    out[key] = /KEY|TOKEN|SECRET|PASSWORD/i.test(key) ? `<redacted len=${String(value).length}>` : value;
  }
  return out;
}
