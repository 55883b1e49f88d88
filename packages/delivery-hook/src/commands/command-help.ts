/**
 * What a command's `--help` says after the usage line and the options commander lists from the
 * declarations in hook-cli.ts: what the command does, and its exit status. Never an option list (a
 * second list drifts from the declared one; hook-cli-help.test.ts checks every option named here is
 * one the command accepts). Plain text, no imports: help must not load a command's implementation.
 */
export const COMMAND_HELP = {
  install: `
Registers the turn-end hook of each agent:
  Claude Code  Stop        user: ~/.claude/settings.json   project: <repo>/.claude/settings.json
  Gemini CLI   AfterAgent  user: ~/.gemini/settings.json   project: <repo>/.gemini/settings.json
  Codex CLI    Stop        user: $CODEX_HOME/hooks.json    project: <repo>/.codex/hooks.json
--agent all: the agents found on this machine (a config directory in your home, or the CLI on PATH).

Refused where the agent already runs the agent-checkpoint plugin (Claude Code, Codex) or extension
(Gemini CLI), since every hook would then run twice; --force installs anyway.

Claude Code: also its status line ([CTX: … L2] [CKPT: …]) when the settings have none — a status
line of yours is never replaced; --no-status-line skips it; uninstall removes ours.

The command is "<node> <bundle> <agent>" with absolute paths (this Node, this bundle): no PATH
lookup, no npx. Comments, formatting and every other entry of the file are kept; our own entries
are replaced, never duplicated; any other command, even one mentioning agent-checkpoint-hook (a
wrapper of yours), is left alone. The file is written atomically (a symlinked file: its target, the
link stays) and the previous version is kept under <state dir>/installs/backups/. A settings path
that is not a regular file (FIFO, device, directory, symlink loop), has duplicate keys on the hooks
path, or cannot be written is refused with one line and exit 1, the file untouched.

Exit status: 0 done (or nothing to do), 1 a file could not be changed, 2 usage error.`,
  uninstall: `
Removes what install registered (the hooks, and Claude Code's status line when it is ours): the
original file is restored byte for byte when nothing else changed it since install, otherwise only
the entries install recorded writing are removed.

--purge, after the hooks are removed: also the state directory (switches, session state, trust
store, install records and settings backups), the code cache and the configuration cache, listing
each, and Codex's trust entries for our plugin's hooks in config.toml; your configuration files
stay. Refused while an agent's plugin or extension of ours is still installed (it would recreate the
state): remove it first with the agent's command, which uninstall prints.

Exit status: 0 done (or nothing to do), 1 a file could not be changed, 2 usage error.`,
  doctor: `
Checks everything a checkpoint needs, and prints a fix for each problem: Node.js; the Claude Code,
Gemini CLI, Codex CLI and GitHub Copilot CLI versions (each CLI asked for its own); where the agent-checkpoint hooks are
registered (user and project settings, and the Claude Code plugin, Gemini CLI extension and Codex
plugin with the hook bin each runs) and whether each points at an existing node and hook bundle,
with a sane timeout; two active installs for one agent (and the command that removes one); a plugin
marketplace or linked extension folder that moved or was deleted (and the command that re-adds it
from its git URL); whether Codex trusts the hook; the configuration of the project
(.agent-checkpoint.json, user file, presets); whether the newest session transcript of each agent in
this directory can be read; git; the state directory and the off switches.

Exit status: 0 no failure (warnings allowed), 1 at least one failure, 2 usage error.`,
  init: `
Writes .agent-checkpoint.json at the repository root with:
  - "$schema": the JSON schema of this version, published with the package on npm
    (https://unpkg.com/@agent-checkpoint/core@<version>/schema.json): the same in every clone;
  - "extends": the presets detected here (agent-checkpoint-hook presets lists them all);
  - commented examples of the common keys. The file is JSON with comments.
An existing file is left alone unless --force, which first copies it to .agent-checkpoint.json.bak
(or .bak.<time> when that exists too). Nothing is written through a symlink, and a FIFO, device or
directory at either name is refused.

Exit status: 0 written (or printed), 1 the file exists (without --force) or could not be written, 2 usage error.`,
  config: `
Prints the configuration the hook would use in the project — built-in defaults, then the detected
presets, the user file and the project file (.agent-checkpoint.json), merged — with the layer each
value came from, the project keys ignored because the file is not trusted (see
agent-checkpoint-hook trust), and any problem with the files.
--json: { projectRoot, sources, config, origins, untrusted, ignoredFiles, diagnostics }.

Exit status: 0 every configuration file present applies (untrusted keys aside), 1 a file is ignored
as a whole (unreadable, invalid, or not at the repository root; the reason is printed), 2 usage error.`,
  presets: `
Lists the built-in presets: what each checks (its categories), what selects it (marker files at the
repository root; none: only by name in "extends"), what it builds on (extends) and replaces when both
are detected (supersedes), and whether it is detected — and applied — in the project.`,
  explain: `
Runs the whole checkpoint for one turn without delivering it — configuration, git and the
transcript are read exactly as the hook reads them; nothing is claimed or written — and shows:
the turn's tool calls, the changed files attributed to the turn and why, each category with the
evidence found (and in which call) or missing, each observation with the calls behind it, the
configuration sources, diagnostics, and the message the hook would send (or why it stays silent).
The transcript: --transcript, else the session's (--session), else the newest for --cwd.
--json: the CheckpointOutcome plus the numbered timeline.

Exit status: 0 explained (whatever the decision), 1 failure (no such transcript…), 2 usage error.`,
  trust: `
A project file (.agent-checkpoint.json) is written by whoever published the repository, or by the
agent during a turn; the hook runs as you, outside the agent's sandbox. So its privileged keys —
runTests.command and .enabled, directExecution (enabled, commit, push, remote, noVerify, gitHooks,
memoryFile, logFile, duringLoop), handoff.dir — apply only once you trusted that exact file. Trust records where
the file is used (its repository's real directory and its own name: a link to another repository's
trusted file is not trusted here) and the SHA-256 of its content in the state directory; any edit
needs trusting again. Review the file first: the keys it would enable are printed. Your user-level file is always trusted.

path: the file, or a directory (its repository's .agent-checkpoint.json); default: the current
directory's repository.

Exit status: 0 done, 1 failure (no such file, invalid file…), 2 usage error.`,
  'resume-prompt': `
Always exits 0: the section on stdout, or nothing (bad arguments: one line on stderr).`,
  loop: `
State: <repo>/.agent-checkpoint/loop-state.json; end-this-iteration signal: <repo>/.agent-checkpoint/loop-end-iteration.
Autonomous mode: with directExecution.duringLoop (user config), from \`loop start\` to \`loop end\` (or 6
hours after the last \`loop next\`) checkpoints in this project run directly (memory file, WIP commit).
Exit codes: 0 ok, 1 failed, 2 usage, 3 (status) no loop here,
  10 (next) the previous iteration ended with a handoff: prepend \`resume-prompt\` to the next prompt.`,
  state: `
JSON input (save, update-phase, handoff, respond) comes from --json or stdin. Output: JSON on stdout.
handoff --phase P --mode M: the sub-agent request (seed 002): previous_summary is the last completed
  phase's summary (at most 500 tokens, else refused); the phase becomes in_progress with its mode.
respond --phase P: records a sub-agent's response {status, context_summary, files_created, ...};
  a context_summary over 500 tokens is refused unless --truncate.
Exit codes: 0 ok, 1 failed, 2 usage error, 3 no checkpoint / nothing to resume.`,
} as const;
