/**
 * The Python program that runs one infilled HumanEval program inside the sandbox, a port of
 * `human_eval_infilling.execution.check_correctness` as NeMo Gym's code_fim server calls it: in a fresh temporary
 * folder, with the library's reliability guard, it runs `prompt + completion + suffix + "\n" + test + "\n" +
 * check(entry_point)` with stdio swallowed and a `timeout`-second alarm; the verdict is "passed", "timed out" or
 * "failed: <exception>". Answers `<nonce><json>` on a copy of its stdout made before the program runs.
 */
import { HARNESS_PRELUDE_PY } from "../_common/python-harness.ts";
import { DISABLE_DESTRUCTIVE_PY } from "../_common/python-guard.ts";

export const FIM_HARNESS_PY = String.raw`
import builtins, contextlib, faulthandler, io, json, os, shutil, signal, subprocess, sys, tempfile
${HARNESS_PRELUDE_PY}


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
