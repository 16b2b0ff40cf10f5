/**
 * The Python program that runs EvalPlus checks inside the sandbox, a port of `evalplus.evaluate.check_correctness`
 * as NeMo Gym's evalplus server calls it (base and plus inputs, `base_only=False`, `fast_check=False`):
 * mode "groundtruth" runs the canonical solution for expected outputs (pickled, so they come back exactly as
 * Python made them) and reference times (EvalPlus's `get_groundtruth`); mode "check" runs a solution on one input
 * set (base or plus, each its own process as in EvalPlus) with per-input limits `max(min_time_limit, factor · t)`,
 * EvalPlus's float rule (atol, else 1e-6 for float outputs, rtol 1e-7), its special oracles, and its
 * reliability guard. Answers `<nonce><json>` on its own stdout; the program's output is swallowed.
 */
import { HARNESS_PRELUDE_PY } from "../_common/python-harness.ts";
import { DISABLE_DESTRUCTIVE_PY } from "../_common/python-guard.ts";

export const EVALPLUS_HARNESS_PY = String.raw`
import contextlib, faulthandler, io, json, math, os, signal, sys, time
${HARNESS_PRELUDE_PY}


def is_floats(x):
    if isinstance(x, float):
        return True
    if isinstance(x, (list, tuple)) and x:
        return all(isinstance(i, float) for i in x)
    return False


def allclose(out, exp, rtol, atol):
    # numpy.allclose over equally shaped nested lists of numbers (EvalPlus asserted the shapes before)
    if isinstance(exp, (list, tuple)):
        if not isinstance(out, (list, tuple)) or len(out) != len(exp):
            raise AssertionError
        return all(allclose(a, b, rtol, atol) for a, b in zip(out, exp))
    a, b = float(out), float(exp)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= atol + rtol * abs(b)


def poly(xs, x):
    return sum(coeff * math.pow(x, i) for i, coeff in enumerate(xs))


def surface_area(r, h):
    return 2 * 3.1415926535 * r * r + 2 * 3.1415926535 * r * h


MBPP_OUTPUT_NOT_NONE_TASKS = ["check_str", "text_match_three", "text_starta_endb"]
MBPP_OUTPUT_SET_EQ_TASKS = ["similar_elements", "find_char_long", "common_in_nested_lists", "extract_singly", "larg_nnum", "intersection_array", "find_dissimilar", "Diff"]


def reliability_guard(maximum_memory_bytes):
    import builtins, resource, shutil, subprocess, platform
    for kind in (resource.RLIMIT_AS, resource.RLIMIT_DATA) + ((resource.RLIMIT_STACK,) if platform.uname().system != "Darwin" else ()):
        try:
            resource.setrlimit(kind, (maximum_memory_bytes, maximum_memory_bytes))
        except (ValueError, OSError):
            pass
    faulthandler.disable()
    builtins.exit = None
    builtins.quit = None
${DISABLE_DESTRUCTIVE_PY}


def groundtruth(problem):
    import base64, copy, pickle
    env = {}
    exec(problem["prompt"] + problem["canonical_solution"], env)
    fn = env[problem["entry_point"]]
    outputs, answer = {}, {}
    for key in ("base", "plus"):
        outputs[key], times = [], []
        for inp in problem[key + "_input"]:
            start = time.time()
            outputs[key].append(fn(*copy.deepcopy(inp)))
            times.append(time.time() - start)
        answer[key + "_time"] = times
    # Pickled so the expected outputs reach the check exactly as Python made them (tuples, sets, inf, big ints).
    answer["blob"] = base64.b64encode(pickle.dumps(outputs)).decode()
    return answer


def check_inputs(dataset, entry_point, code, inputs, expected, time_limits, atol, details):
    exec_globals = {}
    with swallow_io():
        exec(code, exec_globals)
        fn = exec_globals[entry_point]
    for i, inp in enumerate(inputs):
        try:
            with time_limit(time_limits[i]):
                with swallow_io():
                    out = fn(*inp)
            exp = expected[i]
            exact_match = out == exp
            if dataset == "mbpp":
                if entry_point == "are_equivalent":
                    exact_match = exact_match or True
                elif entry_point == "sum_div":
                    exact_match = exact_match or out == 0
                elif entry_point == "surface_Area":
                    exact_match = exact_match or abs(out - surface_area(*inp)) <= atol
                elif entry_point in MBPP_OUTPUT_NOT_NONE_TASKS:
                    exact_match = (out == exp) if isinstance(out, bool) else (exp == (out is not None))
                elif entry_point in MBPP_OUTPUT_SET_EQ_TASKS:
                    exact_match = set(out) == set(exp)
            if dataset == "humaneval" and entry_point == "find_zero":
                assert abs(poly(*inp, out)) <= atol
                details.append(1)
                continue
            if atol == 0 and is_floats(exp):
                atol = 1e-6  # EvalPlus keeps this for the rest of the inputs
            if not exact_match and atol != 0:
                assert type(out) == type(exp)
                if isinstance(exp, (list, tuple)):
                    assert len(out) == len(exp)
                assert allclose(out, exp, 1e-07, atol)
            else:
                assert exact_match
        except BaseException:
            details.append(0)
            continue
        details.append(1)


def check(request):
    import base64, pickle
    problem, key, code = json.loads(request["problem_line"]), request["key"], request["code"]
    # NeMo Gym prepends the prompt (imports, signature) unless the code already starts with it.
    solution = code if code.startswith(problem["prompt"]) else problem["prompt"] + code
    expected = pickle.loads(base64.b64decode(request["blob"]))[key]
    details, status = [], "pass"
    try:
        check_inputs(request["dataset"], problem["entry_point"], solution, problem[key + "_input"], expected, request["time_limits"], problem.get("atol", 0), details)
    except BaseException:
        status = "fail"
    if status == "pass" and (len(details) != len(problem[key + "_input"]) or not all(details)):
        status = "fail"
    return [status, details]


sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
if REQUEST["mode"] == "groundtruth":
    answer = groundtruth(json.loads(REQUEST["problem_line"]))
else:
    os.chdir("/tmp")
    reliability_guard(REQUEST["memory_bytes"])
    answer = check(REQUEST)
RESULT_OUT.write(NONCE + json.dumps(answer, default=repr) + "\n")
RESULT_OUT.flush()
`;
