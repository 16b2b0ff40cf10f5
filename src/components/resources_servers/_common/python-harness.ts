/**
 * The opening both code harnesses share (as NeMo Gym's HumanEval-infilling and EvalPlus checks do), as Python lines
 * after the harness's own imports (it needs contextlib, io, json, os, signal, sys): the request read from stdin, a
 * copy of stdout kept for the `<nonce><json>` answer before stdout goes to /dev/null, and the libraries'
 * `time_limit` alarm and `swallow_io` redirection.
 */
export const HARNESS_PRELUDE_PY = String.raw`REQUEST = json.loads(sys.stdin.buffer.read())
NONCE = REQUEST.pop("nonce")
RESULT_OUT = os.fdopen(os.dup(1), "w")
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)


class TimeoutException(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds):
    def handler(signum, frame):
        raise TimeoutException("Timed out!")
    signal.setitimer(signal.ITIMER_REAL, seconds)
    signal.signal(signal.SIGALRM, handler)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


class WriteOnlyStringIO(io.StringIO):
    def read(self, *args, **kwargs):
        raise IOError
    def readline(self, *args, **kwargs):
        raise IOError
    def readlines(self, *args, **kwargs):
        raise IOError
    def readable(self, *args, **kwargs):
        return False


class redirect_stdin(contextlib._RedirectStream):
    _stream = "stdin"


@contextlib.contextmanager
def swallow_io():
    stream = WriteOnlyStringIO()
    with contextlib.redirect_stdout(stream), contextlib.redirect_stderr(stream), redirect_stdin(stream):
        yield`;
