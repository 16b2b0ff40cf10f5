/**
 * The Python program of one session, run in the sandbox. It imports the libraries the cells may use (numpy, scipy,
 * pandas: whichever are installed), connects to the session's Unix socket (its one way out), then forks the cell
 * runner: a process that keeps one globals / locals pair for the whole session and runs each cell as NeMo Gym's
 * worker does (the same restricted builtins, `exec` then the last line's value, SIGALRM at max_execution_time).
 * The parent watches it: a cell still running `grace` seconds after its alarm (stuck in C code, or ignoring the
 * alarm) is killed with its process group, and the session ends. One JSON line in, one JSON line out.
 */
export const WORKER_PY = String.raw`import io, json, os, select, signal, socket, sys
from contextlib import redirect_stderr, redirect_stdout

CONF = json.loads(sys.argv[1])
LIBS = {}
for alias, module in (("np", "numpy"), ("numpy", "numpy"), ("scipy", "scipy"), ("pd", "pandas"), ("pandas", "pandas")):
    try:
        LIBS[alias] = __import__(module)
    except ImportError:
        pass
for module in CONF["required"]:
    __import__(module)

conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
conn.connect(CONF["socket"])
null = os.open(os.devnull, os.O_RDWR)
for fd in (0, 1, 2):
    os.dup2(null, fd)
conn.sendall((json.dumps({"ready": True, "libraries": sorted(set(m.__name__ for m in LIBS.values()))}) + "\n").encode())

BUILTINS = {name: getattr(__builtins__, name) for name in (
    "print", "len", "str", "int", "float", "list", "dict", "tuple", "set", "min", "max", "sum", "abs", "range",
    "enumerate", "zip", "__import__")}
STARTS = ("print", "import", "from", "def", "class", "if", "for", "while", "try", "with")


def last_value(code, g, l):
    lines = code.strip().split("\n")
    last = lines[-1].strip()
    if last.startswith(STARTS):
        return None
    try:
        return str(eval(last, g, l))
    except Exception:
        return None


def on_alarm(signum, frame):
    raise TimeoutError("code timed-out")


def run_cells(requests, replies):
    os.setpgid(0, 0)
    g = {"__builtins__": BUILTINS, **LIBS}
    l = {}
    for line in requests:
        code = json.loads(line)["code"]
        out, err = io.StringIO(), io.StringIO()
        signal.signal(signal.SIGALRM, on_alarm)
        signal.alarm(CONF["timeout"])
        try:
            try:
                with redirect_stdout(out), redirect_stderr(err):
                    exec(code, g, l)
                    result = last_value(code, g, l)
            finally:
                signal.alarm(0)
            reply = {"ok": True, "out": out.getvalue(), "err": err.getvalue(), "res": result}
        except Exception as e:
            reply = {"ok": False, "error": str(e)}
        replies.write((json.dumps(reply) + "\n").encode())
        replies.flush()


def ended(reason):
    conn.sendall((json.dumps({"ok": False, "ended": True, "error": reason}) + "\n").encode())
    sys.exit(0)


cell_in, to_cells = os.pipe()
cell_out, from_cells = os.pipe()
child = os.fork()
if child == 0:
    conn.close()
    os.close(to_cells)
    os.close(cell_out)
    try:
        run_cells(os.fdopen(cell_in, "rb"), os.fdopen(from_cells, "wb"))
    finally:
        os._exit(0)
os.close(cell_in)
os.close(from_cells)
replies = os.fdopen(cell_out, "rb")
for line in conn.makefile("rb"):
    os.write(to_cells, line)
    ready, _, _ = select.select([cell_out], [], [], CONF["timeout"] + CONF["grace"])
    if not ready:
        try:
            os.killpg(child, signal.SIGKILL)
        except OSError:
            pass
        ended(f"code still running {CONF['grace']} s after the {CONF['timeout']} s time limit: it was killed and the session's state is lost")
    reply = replies.readline()
    if not reply.endswith(b"\n"):
        _, status = os.waitpid(child, 0)
        how = f"signal {-os.waitstatus_to_exitcode(status)}" if os.WIFSIGNALED(status) else f"exit status {os.waitstatus_to_exitcode(status)}"
        ended(f"the session's Python process ended ({how}): its state is lost")
    conn.sendall(reply)
try:
    os.killpg(child, signal.SIGKILL)
except OSError:
    pass
`;
