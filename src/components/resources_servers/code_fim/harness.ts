/**
 * The Python program that runs one infilled HumanEval program inside the sandbox, a port of
 * `human_eval_infilling.execution.check_correctness` as NeMo Gym's code_fim server calls it: in a fresh temporary
 * folder, with the library's reliability guard, it runs `prompt + completion + suffix + "\n" + test + "\n" +
 * check(entry_point)` with stdio swallowed and a `timeout`-second alarm; the verdict is "passed", "timed out" or
 * "failed: <exception>". Answers `<nonce><json>` on a copy of its stdout made before the program runs.
 */
import { DISABLE_DESTRUCTIVE_PY } from "../_common/python-guard.ts";

export const FIM_HARNESS_PY = String.raw`
import builtins, contextlib, faulthandler, io, json, os, shutil, signal, subprocess, sys, tempfile
REQUEST = json.loads(sys.stdin.buffer.read())
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
        yield


def reliability_guard():
    faulthandler.disable()
    builtins.exit = None
    builtins.quit = None
${DISABLE_DESTRUCTIVE_PY}


def answer(verdict):
    RESULT_OUT.write(NONCE + json.dumps({"result": verdict}) + "\n")
    RESULT_OUT.flush()


def main():
    problem = REQUEST["problem"]
    os.chdir(tempfile.mkdtemp())
    reliability_guard()
    program = problem["prompt"] + REQUEST["completion"] + problem["suffix"] + "\n" + problem["test"] + "\n" + "check(" + problem["entry_point"] + ")"
    try:
        exec_globals = {}
        with swallow_io():
            with time_limit(REQUEST["timeout"]):
                exec(program, exec_globals)
        verdict = "passed"
    except TimeoutException:
        verdict = "timed out"
    except BaseException as e:
        verdict = "failed: " + str(e)
    answer(verdict)


main()
`;
