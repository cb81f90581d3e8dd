import os
import signal
import sys


def _interrupt(signum, frame):
    raise KeyboardInterrupt


# SIGTERM as Ctrl-C from the first line run (onirim.cli.main keeps it so): only a signal
# while the interpreter itself starts, before this line, ends the process without a word
signal.signal(signal.SIGTERM, _interrupt)
try:
    from .cli import main
    code = main()
except KeyboardInterrupt:       # Ctrl-C or SIGTERM while Python loads the command line
    print("onirim: interrupted", file=sys.stderr)
    code = 130
if code == 130:
    # An interrupted command has said its one line.  Leave with status 130 as documented:
    # once a KeyboardInterrupt has crossed some C-level boundary on its way to our handler,
    # Python's own exit would end the process by SIGINT instead (status -2, seen in
    # tests/cli/test_faults.py).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(130)
raise SystemExit(code)
