"""Many checks of a tests/cli script for one Python start (the
interpreter's start costs more than most checks): the other half of
tests/cli/checks.bash's `defer` and `verdicts`.

A script's checks are functions of file names (and other words). Each line
of standard input is one check: its function's name and arguments,
separated by tabs. serve() answers each line with one line: "ok", or why the
check failed (the assertion's message, or sys.exit's). A check fails by
raising (assert) or by sys.exit(MESSAGE); returning is passing.

    from verdicts import serve
    def clean(path, tabs=""):
        ...
    serve({"clean": clean})
"""
import sys


def serve(checks):
    for line in sys.stdin:
        name, *args = line.rstrip("\n").split("\t")
        try:
            checks[name](*args)
            why = None
        except SystemExit as e:
            why = (None if e.code in (None, 0) else
                   e.code if isinstance(e.code, str) else "exit %s" % e.code)
        except Exception as e:      # an assertion, or a check that broke
            why = "%s: %s" % (type(e).__name__, e)
        if why is None:
            print("ok", flush=True)
        else:
            print(" ".join(why.split("\n"))[:2000] or "failed", flush=True)
