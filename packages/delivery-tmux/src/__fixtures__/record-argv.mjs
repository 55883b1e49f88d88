#!/usr/bin/env node
// Test-only stand-in for a user's previous notify program: appends {pid, argv} as one JSON line to the
// file named by its first argument, then optionally stays alive for --linger-ms (to show that the
// notify program does not wait for it).
import { appendFileSync } from 'node:fs';

const [out, ...rest] = process.argv.slice(2);
appendFileSync(out, `${JSON.stringify({ pid: process.pid, argv: rest, cwd: process.cwd() })}\n`);
const linger = rest.indexOf('--linger-ms');
if (linger !== -1) setTimeout(() => {}, Number(rest[linger + 1]));
