/**
 * code_fim (HumanEval-Infilling): the model's last fenced block, cleaned as NeMo Skills does (one leading newline
 * dropped, text repeated from the prefix or suffix cut), is spliced between the problem's prefix and suffix and run
 * with the problem's test in the sandbox; reward 1 only for "passed". Metrics: pass@k / majority@k of `accuracy`.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { Semaphore } from "../../../jsonl/concurrency.ts";
import { computePassMajorityMetrics, highestKMetrics } from "../../../metrics/pass-k.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import { openSandbox, requirePython, sandboxMode, type PythonInfo, type Sandbox } from "../../../sandbox/index.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { outputText } from "../_common/output.ts";
import { pyStrRepr } from "../_python/errors.ts";
import { programMemoryBytes } from "../code_gen/grade.ts";
import { checkCompletion } from "./check.ts";
import { extractFimCode, postprocessCompletion } from "./extract.ts";
import { checkSplit, loadProblems, type FimProblem } from "./problems.ts";
import { meanTokenMetrics } from "../_common/key-metrics.ts";

export interface CodeFimConfig extends JsonObject {
  split: string;
  num_processes: number;
  timeout: number;
  problems_jsonl_fpath: string | null;
  sandbox: string | null;
  memory_limit_mb: number | null;
}

interface State {
  slots: Semaphore;
  ready: Promise<{ sandbox: Sandbox; python: PythonInfo }>;
  problems: Promise<Map<string, FimProblem>>;
}

const score = (r: JsonObject) => ({ accuracy: pyFloat(r.passed ? 1 : 0) });

export default defineResourcesServer<CodeFimConfig, State>({
  name: "code_fim",
  className: "CodeFIMResourcesServer",
  reverifyMode: "stateless",
  config: {
    fields: {
      split: py.withDefault(py.str(), () => "random_span"),
      num_processes: py.withDefault(py.int(), () => 8),
      timeout: py.withDefault(py.float(), () => 3.0),
      problems_jsonl_fpath: py.optional(py.str()),
      sandbox: py.optional(py.str()),
      memory_limit_mb: py.optional(py.int()),
    },
  },
  createState(config) {
    checkSplit(config.split);
    const ready = (async () => ({ sandbox: await openSandbox(sandboxMode(config.sandbox), "code_fim"), python: await requirePython("code_fim") }))();
    const problems = loadProblems(config.split, config.problems_jsonl_fpath);
    ready.catch(() => {}); // both reported by the first verify that needs them
    problems.catch(() => {});
    return { slots: new Semaphore(Math.max(1, config.num_processes)), ready, problems };
  },
  verify: {
    request: { fields: { verifier_metadata: py.optional(py.dict()) } },
    response: ["extracted_model_output", "extracted_model_code", "completion", "status", "passed", "metadata"],
    async handler(body, { config, state }) {
      const modelOut = outputText(body.response as JsonObject);
      const taskId = (body.verifier_metadata as JsonObject | null)?.task_id;
      const zero = { reward: 0, passed: false };
      const problems = await state.problems;
      if (taskId == null) return { ...zero, metadata: { error: "missing task_id in verifier_metadata" } };
      const problem = typeof taskId === "string" ? problems.get(taskId) : undefined;
      if (!problem) return { ...zero, metadata: { error: `unknown task_id ${typeof taskId === "string" ? pyStrRepr(taskId) : String(taskId)} for split ${pyStrRepr(config.split)}` } };
      if (!modelOut) return zero;
      const code = extractFimCode(modelOut);
      if (!code) return { ...zero, extracted_model_output: modelOut };
      const completion = postprocessCompletion(code, problem.prompt, problem.suffix);
      const { sandbox, python } = await state.ready;
      const memoryBytes = programMemoryBytes(config.num_processes, config.memory_limit_mb);
      await state.slots.acquire();
      let verdict;
      try {
        verdict = await checkCompletion(sandbox, python, problem, completion, { timeout: config.timeout, memoryBytes });
      } finally {
        state.slots.release();
      }
      const passed = verdict.result === "passed";
      return {
        reward: passed ? 1 : 0,
        extracted_model_output: modelOut,
        extracted_model_code: code,
        completion,
        status: verdict.result,
        passed,
        metadata: verdict.reason ? { sandbox_reason: verdict.reason } : null,
      };
    },
  },
  computeMetrics: (tasks) => computePassMajorityMetrics(tasks, { scoreFn: score, answerKey: "completion" }).metrics,
  keyMetrics(agentMetrics) {
    const key = meanTokenMetrics(agentMetrics);
    Object.assign(key, highestKMetrics(agentMetrics, "pass@1[avg-of-{k}]", ["accuracy"]));
    Object.assign(key, highestKMetrics(agentMetrics, "pass@{k}", ["accuracy"]));
    Object.assign(key, highestKMetrics(agentMetrics, "majority@{k}", ["accuracy"]));
    return key;
  },
});
