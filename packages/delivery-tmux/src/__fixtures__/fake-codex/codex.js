#!/usr/bin/env node
// A test double of the Codex CLI TUI (codex-cli 0.169) for tmux tests. Test-only; never shipped.
//
// It is named codex.js and launched as `node …/codex.js` so that its command line looks like the npm
// launcher of the real CLI. It models what the delivery route depends on:
// - enables bracketed paste (ESC[?2004h) and treats a bracketed paste as one text insertion
//   (CR/CRLF inside it become newlines);
// - renders an idle composer like the real one (`› Ask Codex to do anything`, footer with
//   `? for shortcuts`) and hides that hint while the composer holds text;
// - submits on Enter (CR) only outside a paste and only when the Enter is a separate key: an Enter
//   arriving within 50 ms of typed characters is swallowed (Codex's paste-burst heuristic);
// - a typed LF (C-j) inserts a newline;
// - shows `Working (Ns • esc to interrupt)` for --busy-ms after each submission;
// - records every event to --record as JSONL: submit (exact text), paste, swallowed-enter, and
//   anything a test must never see from the delivery route: ctrl-c (then exits 130), escape
//   (an escape sequence that is not a paste marker), control (other C0 bytes), suspend (C-z: the
//   TUI stops itself, as the real one does).
//
// Options: --record <file> (required) --busy-ms <n> (default 1500) --start-busy-ms <n> (default 0)
//          --swallow-enters <n> (ignore the first n Enter keys; default 0) --no-bracketed-paste
//          --hold-open <rollout> (keep that file open, as the real TUI keeps its rollout)
import { appendFileSync, closeSync, fstatSync, openSync, statSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index === -1 ? fallback : args[index + 1];
};
const recordPath = option('--record');
if (!recordPath) {
  process.stderr.write('fake codex: --record <file> is required\n');
  process.exit(2);
}
// Like the real TUI (without the daemon), keep the thread's rollout open: the notify route's proof
// that this pane runs that thread. Created when missing, so a test may write it later.
// Re-opened whenever the path names another file (a test may write or replace it later); only
// regular files and directories are opened (never a FIFO: that would block).
const holdOpen = option('--hold-open');
let held;
let heldIno;
const refreshHeld = () => {
  try {
    const info = statSync(holdOpen);
    if (!info.isFile() && !info.isDirectory()) return;
    if (held !== undefined && info.ino === heldIno) return;
    if (held !== undefined) closeSync(held);
    held = openSync(holdOpen, 'r');
    heldIno = fstatSync(held).ino;
  } catch {
    // Not there (yet).
  }
};
if (holdOpen) {
  refreshHeld();
  setInterval(refreshHeld, 25);
}
const busyMs = Number(option('--busy-ms', '1500'));
let swallowEnters = Number(option('--swallow-enters', '0'));
const bracketed = !args.includes('--no-bracketed-paste');

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
const BURST_MS = 50;

let composer = '';
const history = [];
let busyUntil = Date.now() + Number(option('--start-busy-ms', '0'));
let busySince = Date.now();
let lastTypedAt = 0;
let inPaste = false;
let pasteText = '';
let pending = '';

function record(event) {
  appendFileSync(recordPath, `${JSON.stringify({ t: Date.now(), ...event })}\n`);
}

const isBusy = () => Date.now() < busyUntil;

function render() {
  const rows = process.stdout.rows || 24;
  const cols = process.stdout.columns || 80;
  const clip = (line) => (line.length > cols - 1 ? line.slice(0, cols - 1) : line);
  const bottom = [];
  if (isBusy()) {
    const seconds = Math.floor((Date.now() - busySince) / 1000);
    bottom.push(`Working (${seconds}s • esc to interrupt)`, '');
  }
  const composerLines = composer === '' ? ['Ask Codex to do anything'] : composer.split('\n').slice(-8);
  composerLines.forEach((line, index) => bottom.push(`${index === 0 ? '›' : ' '} ${line}`));
  bottom.push('', '  gpt-fake default · /fake/repo');
  bottom.push(composer === '' ? '  ← for agents · ? for shortcuts' : '  ⏎ send · ctrl + j newline');
  const top = ['', '  >_ Fake Codex (test double of codex-cli 0.169)', ''];
  for (const text of history) top.push(`› ${text.split('\n')[0]}`, '');
  const room = Math.max(0, rows - bottom.length);
  const visibleTop = top.slice(Math.max(0, top.length - room));
  while (visibleTop.length < room) visibleTop.push('');
  const screen = [...visibleTop, ...bottom].slice(-rows).map(clip);
  process.stdout.write(`\x1b[H\x1b[2J${screen.join('\r\n')}`);
}

function submit() {
  const text = composer.replace(/\n+$/, '');
  if (text.trim() === '') return;
  record({ type: 'submit', text, busy: isBusy() });
  history.push(text);
  composer = '';
  busySince = Date.now();
  busyUntil = Date.now() + busyMs;
}

function onEnter() {
  if (Date.now() - lastTypedAt < BURST_MS) {
    record({ type: 'swallowed-enter', why: 'paste-burst' });
    return;
  }
  if (swallowEnters > 0) {
    swallowEnters -= 1;
    record({ type: 'swallowed-enter', why: 'option' });
    return;
  }
  submit();
}

function handle(data) {
  let buf = pending + data;
  pending = '';
  let i = 0;
  while (i < buf.length) {
    if (inPaste) {
      const end = buf.indexOf(PASTE_END, i);
      if (end === -1) {
        // Keep a possible partial end marker for the next chunk.
        let keep = 0;
        for (let k = Math.min(PASTE_END.length - 1, buf.length - i); k > 0; k -= 1) {
          if (PASTE_END.startsWith(buf.slice(buf.length - k))) {
            keep = k;
            break;
          }
        }
        pasteText += buf.slice(i, buf.length - keep);
        pending = buf.slice(buf.length - keep);
        return;
      }
      pasteText += buf.slice(i, end);
      i = end + PASTE_END.length;
      inPaste = false;
      const text = pasteText.replace(/\r\n?/g, '\n');
      pasteText = '';
      composer += text;
      record({ type: 'paste', length: text.length });
      continue;
    }
    const ch = buf[i];
    if (ch === '\x1b') {
      const rest = buf.slice(i);
      if (rest.startsWith(PASTE_START)) {
        inPaste = true;
        i += PASTE_START.length;
        continue;
      }
      if (PASTE_START.startsWith(rest) && rest.length < PASTE_START.length) {
        pending = rest;
        return;
      }
      const csi = /^\x1b\[[0-?]*[ -/]*[@-~]/.exec(rest);
      const seq = csi ? csi[0] : rest.slice(0, 2);
      record({ type: 'escape', seq, busy: isBusy() });
      if (isBusy()) {
        record({ type: 'interrupt' });
        busyUntil = 0;
      }
      i += seq.length;
      continue;
    }
    if (ch === '\r') {
      onEnter();
      i += 1;
      continue;
    }
    if (ch === '\n') {
      composer += '\n';
      lastTypedAt = Date.now();
      i += 1;
      continue;
    }
    if (ch === '\x03') {
      record({ type: 'ctrl-c' });
      shutdown(130);
      return;
    }
    if (ch === '\x1a') {
      // C-z: suspend like the real TUI (raw mode turns off ISIG, so the TUI stops itself).
      record({ type: 'suspend' });
      process.stdin.setRawMode?.(false);
      process.kill(process.pid, 'SIGTSTP');
      i += 1;
      continue;
    }
    if (ch === '\x7f' || ch === '\x08') {
      composer = composer.slice(0, -1);
      i += 1;
      continue;
    }
    const code = ch.charCodeAt(0);
    if (code < 0x20 && ch !== '\t') {
      record({ type: 'control', code });
      i += 1;
      continue;
    }
    composer += ch;
    lastTypedAt = Date.now();
    i += 1;
  }
}

function shutdown(code) {
  if (bracketed) process.stdout.write('\x1b[?2004l');
  record({ type: 'exit', code });
  process.exit(code);
}

process.stdin.setRawMode?.(true);
process.stdin.setEncoding('utf8');
let flushTimer;
process.stdin.on('data', (data) => {
  handle(data);
  render();
  // A lone ESC (or a cut-off sequence) with nothing after it is a key press of its own.
  clearTimeout(flushTimer);
  if (pending !== '' && !inPaste) {
    flushTimer = setTimeout(() => {
      const seq = pending;
      pending = '';
      record({ type: 'escape', seq, busy: isBusy() });
      render();
    }, 30);
  }
});
process.on('SIGCONT', () => {
  process.stdin.setRawMode?.(true);
  render();
});
process.on('SIGTERM', () => shutdown(143));
process.on('SIGHUP', () => shutdown(129));
process.stdout.on('resize', render);
if (bracketed) process.stdout.write('\x1b[?2004h');
// Re-render while busy so the timer and the end of the busy period show up.
setInterval(() => {
  if (isBusy() || Date.now() - busyUntil < 500) render();
}, 200);
render();
record({ type: 'ready', pid: process.pid });
