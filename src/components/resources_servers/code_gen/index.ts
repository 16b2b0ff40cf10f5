/**
 * code_gen (LiveCodeBench): the model's last fenced code block runs against stdin/stdout or call-based unit tests
 * in the sandbox; reward 1 only if every test passes; `reasoning_format_penalty` replaces the reward when the
 * `<think>` format is broken. NeMo Gym runs these programs unsandboxed; here bubblewrap is required unless the
 * config (`sandbox: unsafe_no_sandbox`) or GYM_SANDBOX opts out.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { Semaphore } from "../../../jsonl/concurrency.ts";
import { addAvgSampleStdDev, computePassMajorityMetrics, computeSubsetMetrics, highestKMetrics } from "../../../metrics/pass-k.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import { openSandbox, requirePython, sandboxMode, type PythonInfo, type Sandbox } from "../../../sandbox/index.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { outputText } from "../_common/output.ts";
import { extractCode, hasReasoningFormatViolation } from "./extract.ts";
import { allPassed, gradeProgram, programMemoryBytes, type UnitTests } from "./grade.ts";
import { meanTokenMetrics } from "../_common/key-metrics.ts";

export interface CodeGenConfig extends JsonObject {
  num_processes: number;
  unit_test_timeout_secs: number;
  debug: boolean;
  reasoning_format_penalty: number;
  sandbox: string | null;
  memory_limit_mb: number | null;
}

interface State {
  slots: Semaphore;
  ready: Promise<{ sandbox: Sandbox; python: PythonInfo }>;
}

const score = (r: JsonObject) => ({ accuracy: pyFloat(Number(r.reward) > 0 ? 1 : 0) });

/** Checks `verifier_metadata.unit_tests` like NeMo Gym's `UnitTests` model (inputs and outputs: lists of strings). */
export function unitTestsOf(metadata: JsonObject | null): UnitTests {
  const tests = metadata?.unit_tests as JsonObject | undefined;
  const strings = (x: unknown) => Array.isArray(x) && x.every((s) => typeof s === "string");
  if (!tests || !strings(tests.inputs) || !strings(tests.outputs) || (tests.fn_name != null && typeof tests.fn_name !== "string")) {
    throw new Error("verifier_metadata.unit_tests must be {inputs: [str], outputs: [str], fn_name: str | null}");
  }
  return { inputs: tests.inputs as string[], outputs: tests.outputs as string[], fn_name: (tests.fn_name as string | null | undefined) ?? null };
}

export default defineResourcesServer<CodeGenConfig, State>({
  name: "code_gen",
  className: "CompCodingResourcesServer",
  reverifyMode: "stateless",
  config: {
    fields: {
      num_processes: py.int(),
      unit_test_timeout_secs: py.int(),
      debug: py.bool(),
      reasoning_format_penalty: py.withDefault(py.float(), () => 0),
      sandbox: py.optional(py.str()),
      memory_limit_mb: py.optional(py.int()),
    },
  },
  createState(config) {
    const ready = (async () => ({ sandbox: await openSandbox(sandboxMode(config.sandbox), "code_gen"), python: await requirePython("code_gen") }))();
    ready.catch(() => {}); // reported by the first verify that needs it
    return { slots: new Semaphore(Math.max(1, config.num_processes)), ready };
  },
  verify: {
    request: { fields: { verifier_metadata: py.optional(py.dict()) } },
    response: ["extracted_model_output", "extracted_model_code", "result", "metadata", "unit_tests_time_taken", "reasoning_format_violation_rate", "difficulty"],
    async handler(body, { config, state }) {
      const response = body.response as JsonObject;
      const modelOut = outputText(response);
      const metadata = body.verifier_metadata as JsonObject | null;
      const difficulty = (metadata?.difficulty as string | undefined) ?? null;
      const zero = { reward: 0, reasoning_format_violation_rate: pyFloat(0), difficulty };
      if (!modelOut.trim()) return zero;
      const tests = unitTestsOf(metadata);
      const code = extractCode(modelOut);
      if (!code) return { ...zero, extracted_model_output: modelOut };
      const { sandbox, python } = await state.ready;
      await state.slots.acquire();
      let verdict;
      const started = performance.now();
      try {
        const memoryBytes = programMemoryBytes(config.num_processes, config.memory_limit_mb);
        verdict = await gradeProgram(sandbox, python, code, tests, { timeoutSecs: config.unit_test_timeout_secs, memoryBytes });
      } finally {
        state.slots.release();
      }
      const seconds = (performance.now() - started) / 1000;
      const violation = hasReasoningFormatViolation(response);
      return {
        reward: violation ? config.reasoning_format_penalty : allPassed(verdict.result) ? 1 : 0,
        extracted_model_output: modelOut,
        extracted_model_code: code,
        result: verdict.result,
        metadata: verdict.metadata,
        unit_tests_time_taken: seconds,
        reasoning_format_violation_rate: pyFloat(violation ? 1 : 0),
        difficulty,
      };
    },
  },
  computeMetrics(tasks) {
    const result = computePassMajorityMetrics(tasks, { scoreFn: score, answerKey: "extracted_model_code" });
    addAvgSampleStdDev(result);
    return { ...result.metrics, ...computeSubsetMetrics(tasks, "difficulty", { scoreFn: score, answerKey: "extracted_model_code" }) };
  },
  keyMetrics(agentMetrics) {
    const key = meanTokenMetrics(agentMetrics);
    Object.assign(key, highestKMetrics(agentMetrics, "pass@1[avg-of-{k}]", ["accuracy"]));
    Object.assign(key, highestKMetrics(agentMetrics, "pass@{k}", ["accuracy"]));
    Object.assign(key, highestKMetrics(agentMetrics, "majority@{k}", ["accuracy"]));
    const prefixes = new Set(Object.keys(agentMetrics).filter((k) => k.includes("/pass@") && /^[a-z]/.test(k)).map((k) => k.split("/pass@")[0]!));
    for (const prefix of prefixes) Object.assign(key, highestKMetrics(agentMetrics, `${prefix}/pass@1[avg-of-{k}]`, ["accuracy"]));
    return key;
  },
});
