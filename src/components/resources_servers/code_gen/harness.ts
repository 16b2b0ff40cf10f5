/**
 * The Python program that grades one solution inside the sandbox: a port of LiveCodeBench's `testing_util.run_test`
 * as NeMo Gym's code_gen runs it (stdin/stdout tests with Decimal comparison per token, call-based tests with
 * `==`, JSON and float closeness, the star-import prelude, per-test `signal.alarm`, the `reliability_guard`
 * that disables os/shutil/subprocess functions). It reads one JSON request on stdin and writes
 * `<nonce><json>` to its own stdout; the program's stdout goes to /dev/null, so a program cannot fake a verdict
 * by printing. The guard is kept for parity (it changes which programs pass); safety comes from the sandbox.
 */
import { DISABLE_DESTRUCTIVE_PY } from "../_common/python-guard.ts";

export const HARNESS_PY = String.raw`
import ast, faulthandler, json, math, os, signal, sys, time, traceback
from decimal import Decimal
from io import StringIO
from types import ModuleType
from unittest.mock import mock_open, patch

sys.set_int_max_str_digits(50000)
REQUEST = json.loads(sys.stdin.buffer.read())
NONCE = REQUEST.pop("nonce")
RESULT_OUT = os.fdopen(os.dup(1), "w")
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)

PRELUDE = "".join("from %s import *\n" % m for m in ["string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math", "random", "statistics", "itertools", "functools", "operator", "io", "sys", "json", "builtins", "typing"]) + "".join("import %s\n" % m for m in ["string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math", "random", "statistics", "itertools", "functools", "operator", "io", "sys", "json"]) + "sys.setrecursionlimit(50000)\n"


def truncatefn(value, length=300):
    text = value if isinstance(value, str) else str(value)
    if len(text) <= length:
        return text
    return text[: length // 2] + "...(truncated) ..." + text[-length // 2 :]


class TimeoutException(Exception):
    pass


def on_alarm(signum, frame):
    raise TimeoutException


class Capturing(list):
    def __enter__(self):
        self._saved = sys.stdout
        sys.stdout = self._buffer = StringIO()
        self._buffer.close = lambda *a: 1
        return self

    def __exit__(self, *args):
        self.append(self._buffer.getvalue())
        del self._buffer
        sys.stdout = self._saved


class FakeBuffer:
    def __init__(self, text):
        self.data = text.encode("utf-8")

    def read(self, *args):
        return self.data

    def readline(self, *args):
        return self.data.split(b"\n")[0] + b"\n"


class FakeStdin:
    def __init__(self, text):
        self.inputs = text
        self._io = StringIO(text)
        self.buffer = FakeBuffer(text)

    def read(self, *args):
        return self.inputs

    def readline(self, *args):
        return self._io.readline(*args)

    def readlines(self, *args):
        return self.inputs.split("\n")

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._io)

    def __getattr__(self, name):
        return getattr(self._io, name)


def drop_main_guard(code):
    try:
        tree = ast.parse(code)
        last = tree.body[-1]
        if isinstance(last, ast.If) and ast.unparse(last.test).strip() == "__name__ == '__main__'":
            code = ast.unparse(tree.body[:-1]) + "\n" + ast.unparse(last.body)
    except:
        pass
    return code


def wrap_in_function(code):
    try:
        imports, rest = [], []
        for stmt in ast.parse(code).body:
            (imports if isinstance(stmt, (ast.Import, ast.ImportFrom)) else rest).append(stmt)
        fn = ast.FunctionDef(name="wrapped_function", args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=rest, decorator_list=[], lineno=-1)
        return PRELUDE + "\n" + ast.unparse(imports) + "\n" + ast.unparse(fn)
    except Exception:
        return code


def call_with_stdin(method, inputs):
    if isinstance(inputs, list):
        inputs = "\n".join(inputs)
    lines = iter(inputs.split("\n"))

    @patch("builtins.open", mock_open(read_data=inputs))
    @patch("sys.stdin", FakeStdin(inputs))
    @patch("sys.stdin.readline", lambda *args: next(lines))
    @patch("sys.stdin.readlines", lambda *args: inputs.split("\n"))
    @patch("sys.stdin.read", lambda *args: inputs)
    def inner(fn):
        try:
            return fn()
        except SystemExit:
            pass

    return inner(method)


def get_function(module, name):
    try:
        assert hasattr(module, name)
        return getattr(module, name)
    except Exception:
        return


def compile_code(code, timeout):
    signal.alarm(timeout)
    try:
        module = ModuleType("tmp_sol", "")
        exec(code, module.__dict__)
        compiled = module.Solution() if "class Solution" in code else module
        assert compiled is not None
    finally:
        signal.alarm(0)
    return compiled


def as_decimals(line):
    try:
        return True, [Decimal(part) for part in line.split()]
    except:
        return False, []


def stripped_lines(text):
    return [line.strip() for line in text.strip().split("\n")]


def close_floats(a, b):
    # numpy.allclose on two scalars (rtol 1e-5, atol 1e-8), without needing numpy in the user's python3
    a, b = float(a), float(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= 1e-8 + 1e-5 * abs(b)


def failure(code, message, gt_inp, gt_out, error):
    out = {"error": repr(error), "error_code": code, "error_message": message, "inputs": truncatefn(gt_inp), "expected": truncatefn(gt_out)}
    if code == -4:
        out["traceback"] = traceback.format_exc()
    return out


def grade_call_based(code, all_inputs, all_outputs, fn_name, timeout):
    compiled = compile_code(PRELUDE + "\n\n" + code, timeout)
    if compiled is None:
        return
    method = get_function(compiled, fn_name)
    if method is None:
        return
    all_inputs = [[json.loads(line) for line in inputs.split("\n")] for inputs in all_inputs]
    all_outputs = [json.loads(output) for output in all_outputs]
    total, results = 0, []
    for gt_inp, gt_out in zip(all_inputs, all_outputs):
        signal.alarm(timeout)
        faulthandler.enable()
        try:
            start = time.time()
            prediction = method(*gt_inp)
            total += time.time() - start
            signal.alarm(0)
            if isinstance(prediction, tuple):
                prediction = list(prediction)
            ok = prediction == gt_out
            try:
                ok = ok or (json.dumps(prediction) == json.dumps(gt_out))
            except Exception:
                pass
            try:
                ok = ok or close_floats(prediction, gt_out)
            except Exception:
                pass
            results.append(ok)
            if not ok:
                return results, {"output": truncatefn(prediction), "inputs": truncatefn(gt_inp), "expected": truncatefn(gt_out), "error_code": -2, "error_message": "Wrong Answer"}
        except Exception as e:
            signal.alarm(0)
            if "timeoutexception" in repr(e).lower():
                results.append(-3)
                return results, failure(-3, "Time Limit Exceeded", gt_inp, gt_out, e)
            results.append(-4)
            return results, failure(-4, "Runtime Error", gt_inp, gt_out, e)
        finally:
            signal.alarm(0)
            faulthandler.disable()
    return results, {"execution time": total}


def grade_stdio(code, all_inputs, all_outputs, timeout):
    compiled = compile_code(wrap_in_function(drop_main_guard(code)), timeout)
    if compiled is None:
        return
    method = get_function(compiled, "wrapped_function")
    if method is None:
        return
    total, results = 0, []
    for gt_inp, gt_out in zip(all_inputs, all_outputs):
        signal.alarm(timeout)
        faulthandler.enable()
        signal.alarm(timeout)
        with Capturing() as captured:
            try:
                start = time.time()
                call_with_stdin(method, gt_inp)
                total += time.time() - start
                signal.alarm(0)
            except Exception as e:
                signal.alarm(0)
                if "timeoutexception" in repr(e).lower():
                    results.append(-3)
                    return results, failure(-3, "Time Limit Exceeded", gt_inp, gt_out, e)
                results.append(-4)
                return results, failure(-4, "Runtime Error", gt_inp, gt_out, e)
            finally:
                signal.alarm(0)
                faulthandler.disable()
        prediction = captured[0]
        got, want = stripped_lines(prediction), stripped_lines(gt_out)
        wrong = {"output": truncatefn(prediction), "inputs": truncatefn(gt_inp), "expected": truncatefn(gt_out), "error_code": -2}
        if len(got) != len(want):
            results.append(-2)
            wrong["error_message"] = "Wrong answer: mismatched output length"
            return results, wrong
        for output_line_idx, (a, b) in enumerate(zip(got, want)):
            wrong["error_message"] = f"Wrong answer at {output_line_idx=}: {truncatefn(a)} != {truncatefn(b)}"
            if a == b:
                continue
            ok_a, dec_a = as_decimals(a)
            ok_b, dec_b = as_decimals(b) if ok_a else (False, [])
            if ok_a and ok_b and dec_a == dec_b:
                continue
            results.append(-2)
            return results, wrong
        results.append(True)
    return results, {"execution time": total}


def reliability_guard(maximum_memory_bytes):
    import builtins, resource, shutil, subprocess, platform
    for kind in [resource.RLIMIT_DATA] + ([resource.RLIMIT_STACK] if platform.uname().system != "Darwin" else []):
        soft, hard = resource.getrlimit(kind)
        if soft < maximum_memory_bytes:
            try:
                resource.setrlimit(kind, (maximum_memory_bytes, hard))
            except ValueError as e:
                print(repr(e))
    faulthandler.disable()
    builtins.quit = None
${DISABLE_DESTRUCTIVE_PY}


def run_test(in_outs, code, timeout):
    signal.signal(signal.SIGALRM, on_alarm)
    reliability_guard(4 * 1024**3)
    fn_name = in_outs.get("fn_name")
    grade = (lambda: grade_call_based(code, in_outs["inputs"], in_outs["outputs"], fn_name, timeout)) if fn_name is not None else (lambda: grade_stdio(code, in_outs["inputs"], in_outs["outputs"], timeout))
    signal.alarm(timeout)
    try:
        results, metadata = grade()
        return results, metadata
    except Exception as e:
        return [-4], {"error_code": -4, "error_message": f"Error during testing: {e}"}
    finally:
        signal.alarm(0)


def plain(value):
    return value if isinstance(value, (bool, int)) else bool(value)


results, metadata = run_test(REQUEST["tests"], REQUEST["code"], REQUEST["timeout"])
RESULT_OUT.write(NONCE + json.dumps({"result": [plain(r) for r in results], "metadata": metadata}, default=str) + "\n")
RESULT_OUT.flush()
`;
