"""How a one-shot `membank` command's process ends: its exit handlers run, its output is
flushed, then it exits without the interpreter's teardown.

After the command has returned, CPython's teardown frees every module, function and cached
object one by one and runs several full garbage collections over them: ~0.25 s of CPU at the
end of a one-note ingest into a 100,000-page memory (a tenth of the command; perf puts two thirds
of it in the collector's walks, the rest in deallocations), paid by every command and by nothing
it wrote: every file a command writes is written, fsynced and renamed before it returns.

What the teardown does that matters still happens, in the order Python does it: the
non-daemon threads must be finished (else the normal exit waits for them, as always), then the
atexit handlers run (logging's flush, weakref finalizers such as temporary folders'
clean-up, multiprocessing's), then stdout and stderr are flushed; only then `os._exit`. The
normal exit is kept when anything could need the teardown or watches the process: a live
non-daemon thread, a profiler or tracer (cProfile writes its file after the command, coverage
its data), an exit code that is not a number, or a flush that fails (a closed pipe: Python then
reports it as it always does). MEMBANK_FULL_EXIT=1 asks for the normal exit too (a tool that
runs the command in its own process and wants to look at it afterwards).
"""

from __future__ import annotations

import atexit
import os
import sys
import threading

FULL_EXIT_VARIABLE = "MEMBANK_FULL_EXIT"


def exit_code(exc: SystemExit) -> int | None:
    """The process's exit status for `exc` when it is a number (None: 0), else None."""
    code = exc.code
    if code is None:
        return 0
    return code if isinstance(code, int) and not isinstance(code, bool) else None


def may_skip_teardown() -> bool:
    """Whether nothing left in this process can need the interpreter's teardown."""
    if os.environ.get(FULL_EXIT_VARIABLE, "").strip() not in ("", "0"):
        return False
    if sys.getprofile() is not None or sys.gettrace() is not None:
        return False
    main = threading.main_thread()
    return threading.current_thread() is main and not any(
        thread is not main and thread.is_alive() and not thread.daemon
        for thread in threading.enumerate())


def finish(exc: SystemExit) -> None:
    """End the process as `exc` asks, without the teardown when that is safe (see the module);
    returns (and the caller raises `exc` again) when the normal exit must run."""
    code = exit_code(exc)
    if code is None or not may_skip_teardown():
        return
    atexit._run_exitfuncs()  # (what the normal exit runs after the threads' join)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return  # (the normal exit reports a closed pipe as Python does)
    os._exit(code)
