# agent-checkpoint's hook launcher (POSIX sh; no Node needed to run it).
#
# Every Claude Code and Codex CLI hook, and every Gemini CLI hook on POSIX (its bash/PowerShell
# command in hooks/hooks.json at the extension root), runs
# `sh "<plugin root>/hooks/run-hook.sh" [mode] <agent>`, the plugin root read from the environment by
# the shell (never pasted into the command line), with the arguments of `agent-checkpoint-hook`
# itself. It:
# - starts no Node for the per-tool-call monitor (`post-tool`) and the prompt hook (`prompt-submit`)
#   when no configuration file can turn context checkpoints on: neither the user file nor a project
#   file `.agent-checkpoint.json` in the working directory or a parent up to the repository root.
#   Only `[ -f ]` tests: no file is read here, so a FIFO or a device in their place cannot hang it.
#   With a file present, Node starts and decides from its contents as before;
# - without `node` on PATH exits 0 with nothing on stdout (every agent reads that as "carry on"),
#   and at session start says so once, as `{"systemMessage":…}`, which all three agents show the user.
#   A Node that is too old is told apart by the bin itself (its first lines parse on any Node).
# The two mode lists below (skipped without a config file; the notice at session start) follow the
# table in packages/delivery-hook/src/hook-modes.ts (`withoutConfigFile`, `whenNodeTooOld`), checked
# by hook-modes.test.ts.

case $0 in
  */*) dist=${0%/*}/../dist ;;
  *) dist=../dist ;;
esac

# Let the agent finish writing the payload before exiting without reading it (Codex reports a
# failed stdin write as a hook error); `cat` reads only this pipe.
drain() { cat >/dev/null 2>&1; }

case ${1-} in
  post-tool | prompt-submit)
    if [ -z "${AGENT_CHECKPOINT_CONFIG-}" ]; then
      case ${XDG_CONFIG_HOME-} in
        /*) user_config=$XDG_CONFIG_HOME/agent-checkpoint/config.json ;;
        *) user_config=${HOME-}/.config/agent-checkpoint/config.json ;;
      esac
      if [ ! -f "$user_config" ]; then
        # `cd -P .` rather than `$(pwd -P)`: a command substitution forks a subshell (about 1 ms of this
        # script's 2-3 ms); cd sets PWD to the physical path in the shell itself.
        if cd -P . 2>/dev/null; then dir=$PWD; else dir=; fi
        found=
        while [ -n "$dir" ]; do
          if [ -f "$dir/.agent-checkpoint.json" ]; then found=1; break; fi
          if [ -e "$dir/.git" ] || [ "$dir" = / ]; then break; fi
          dir=${dir%/*}
          [ -n "$dir" ] || dir=/
        done
        if [ -z "$found" ]; then drain; exit 0; fi
      fi
    fi
    ;;
esac

if command -v node >/dev/null 2>&1; then
  exec node "$dist/agent-checkpoint-hook.cjs" "$@"
fi

drain
if [ "${1-}" = session-start ]; then
  printf '%s\n' '{"systemMessage":"agent-checkpoint: no Node.js found on PATH, so its hooks do nothing in this session (no end-of-turn checkpoint). Install Node.js 18 or later (https://nodejs.org), make sure `node` is on the PATH the agent starts with, and start a new session."}'
fi
exit 0
