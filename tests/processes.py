"""Child processes that a test stops with Ctrl-C (SIGINT)."""

from __future__ import annotations

import signal


def ctrl_c_reaches_it() -> None:
    """`preexec_fn` for a child a test interrupts: SIGINT as a terminal gives it. A child inherits its
    parent's ignored signals and signal mask, and a test worker's may have SIGINT ignored or blocked
    (a Python child then never turns Ctrl-C into KeyboardInterrupt and the test waits in vain)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)
