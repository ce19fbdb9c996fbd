#!/usr/bin/env bash
# hang-guard.sh SECONDS COMMAND...: runs COMMAND with its output line-buffered, and when it has
# not ended after SECONDS prints what every process under it is doing, then kills them all.
#
# A hang guard, not a deadline: SECONDS is several times what COMMAND takes on a loaded machine.
# What it prints when it fires is what a hang needs to be found: the process tree with each
# process's state (Z: exited, nobody reaped it), and, when gdb is installed, every thread's stack
# of each process under COMMAND. Exit status: COMMAND's, or 124 when the guard fired.
set -uo pipefail
limit=$1; shift

# Block-buffered stdout loses the last few KB of a killed test run's log, and with them which
# tests were still running: stdbuf makes the runner's stdout line-buffered.
buffering=()
command -v stdbuf >/dev/null 2>&1 && buffering=(stdbuf -oL -eL)

setsid "${buffering[@]}" "$@" &
child=$!
trap 'kill -TERM -- -"$child" 2>/dev/null' INT TERM

# Wakes each second to look at the clock; the wait that matters is `wait` below.
( end=$((SECONDS + limit))
  while kill -0 "$child" 2>/dev/null; do
    if [ "$SECONDS" -ge "$end" ]; then
      echo
      echo "hang-guard: \`$*\` still running after ${limit} s; what its processes are doing:"
      ps -o pid,ppid,stat,etime,time,args -g "$child" 2>/dev/null | cut -c1-200
      if command -v gdb >/dev/null 2>&1; then
        for pid in $(ps -o pid= -g "$child" 2>/dev/null); do
          case "$(ps -o stat= -p "$pid" 2>/dev/null)" in Z*|"") continue ;; esac
          echo "--- threads of $pid: $(ps -o args= -p "$pid" | cut -c1-120)"
          timeout 60 gdb -batch -p "$pid" -ex "thread apply all bt 12" 2>/dev/null \
            | grep -E '^(Thread|#)' | cut -c1-160
        done
      fi
      kill -TERM -- -"$child" 2>/dev/null
      sleep 30
      kill -KILL -- -"$child" 2>/dev/null
      exit 0
    fi
    sleep 1
  done ) &
watcher=$!

wait "$child"
status=$?
kill "$watcher" 2>/dev/null
wait "$watcher" 2>/dev/null
# A process group killed by the guard ends with SIGTERM or SIGKILL: report the guard's 124.
if [ "$status" -eq 143 ] || [ "$status" -eq 137 ]; then
  status=124
fi
exit "$status"
