/**
 * evalplus (HumanEval+, MBPP+): the last fenced block, prefixed with the problem's prompt, runs against EvalPlus's
 * base and plus inputs in the sandbox; `is_correct` = base passed, `is_correct_plus` = both; reward 1 only for both;
 * metrics pass@k / majority@k for `passing_base_tests` and `passing_plus_tests`. Problems come from the EvalPlus
 * release JSONL that `gym eval prepare --benchmark human_eval|mbpp` writes (NeMo Gym reads the evalplus package's).
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { Semaphore } from "../../../jsonl/concurrency.ts";
import { computePassMajorityMetrics, highestKMetrics } from "../../../metrics/pass-k.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import { openSandbox, requirePython, sandboxMode, type PythonInfo, type Sandbox } from "../../../sandbox/index.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { outputText } from "../_common/output.ts";
import { programMemoryBytes } from "../code_gen/grade.ts";
import { checkSolution, groundTruth, type GroundTruth } from "./check.ts";
import { extractCodeStrict } from "./extract.ts";
import { loadProblems } from "./problems.ts";
import { meanTokenMetrics } from "../_common/key-metrics.ts";

export interface EvalPlusConfig extends JsonObject {
  dataset: string;
  num_processes: number;
  min_time_limit: number;
  gt_time_limit_factor: number;
  evalplus_version: string;
  problems_jsonl_fpath: string | null;
  sandbox: string | null;
  memory_limit_mb: number | null;
}

interface State {
  slots: Semaphore;
  ready: Promise<{ sandbox: Sandbox; python: PythonInfo }>;
  problems: () => Map<string, string>;
  truths: Map<string, Promise<GroundTruth>>;
}

const score = (r: JsonObject) => ({ passing_base_tests: pyFloat(r.is_correct ? 1 : 0), passing_plus_tests: pyFloat(r.is_correct_plus ? 1 : 0) });

export default defineResourcesServer<EvalPlusConfig, State>({
  name: "evalplus",
  className: "EvalPlusResourcesServer",
  reverifyMode: "stateless",
  config: {
    fields: {
      dataset: py.str(),
      num_processes: py.int(),
      min_time_limit: py.withDefault(py.float(), () => 1.0),
      gt_time_limit_factor: py.withDefault(py.float(), () => 4.0),
      evalplus_version: py.withDefault(py.str(), () => "default"),
      problems_jsonl_fpath: py.optional(py.str()),
      sandbox: py.optional(py.str()),
      memory_limit_mb: py.optional(py.int()),
    },
  },
  createState(config) {
    const ready = (async () => ({
      sandbox: await openSandbox(sandboxMode(config.sandbox), "evalplus"),
      python: await requirePython("evalplus"),
    }))();
    ready.catch(() => {}); // reported by the first verify that needs it
    let problems: Map<string, string> | undefined;
    return { slots: new Semaphore(Math.max(1, config.num_processes)), ready, truths: new Map(), problems: () => (problems ??= loadProblems(config.dataset, config.problems_jsonl_fpath)) };
  },
  verify: {
    request: { fields: { verifier_metadata: py.optional(py.dict()) } },
    response: ["extracted_model_output", "extracted_model_code", "base_status", "plus_status", "is_correct", "is_correct_plus", "metadata"],
    async handler(body, { config, state }) {
      const modelOut = outputText(body.response as JsonObject);
      const taskId = (body.verifier_metadata as JsonObject | null)?.task_id;
      const zero = { reward: 0, is_correct: false, is_correct_plus: false };
      if (taskId == null) return { ...zero, metadata: { error: "missing task_id in verifier_metadata" } };
      const problem = state.problems().get(String(taskId));
      if (problem === undefined) return { ...zero, metadata: { error: `unknown task_id ${pyRepr(String(taskId))} for dataset ${pyRepr(config.dataset)}` } };
      if (!modelOut.trim()) return zero;
      const code = extractCodeStrict(modelOut);
      if (!code) return { ...zero, extracted_model_output: modelOut };
      const { sandbox, python } = await state.ready;
      const memoryBytes = programMemoryBytes(config.num_processes, config.memory_limit_mb);
      await state.slots.acquire();
      let result;
      try {
        let truth = state.truths.get(String(taskId));
        if (!truth) state.truths.set(String(taskId), (truth = groundTruth(sandbox, python, problem, memoryBytes)));
        const options = { dataset: config.dataset, minTimeLimit: config.min_time_limit, gtTimeLimitFactor: config.gt_time_limit_factor, memoryBytes };
        result = await checkSolution(sandbox, python, problem, code, await truth, options);
      } finally {
        state.slots.release();
      }
      const isCorrect = result.base_status === "pass";
      const isCorrectPlus = isCorrect && result.plus_status === "pass";
      return {
        reward: isCorrectPlus ? 1 : 0,
        extracted_model_output: modelOut,
        extracted_model_code: code,
        base_status: result.base_status,
        plus_status: result.plus_status,
        is_correct: isCorrect,
        is_correct_plus: isCorrectPlus,
        metadata: { base_details: result.base_details, plus_details: result.plus_details },
      };
    },
  },
  computeMetrics: (tasks) => computePassMajorityMetrics(tasks, { scoreFn: score, answerKey: "extracted_model_code" }).metrics,
  keyMetrics(agentMetrics) {
    const key = meanTokenMetrics(agentMetrics);
    const names = ["passing_base_tests", "passing_plus_tests"];
    Object.assign(key, highestKMetrics(agentMetrics, "pass@1[avg-of-{k}]", names));
    Object.assign(key, highestKMetrics(agentMetrics, "pass@{k}", names));
    Object.assign(key, highestKMetrics(agentMetrics, "majority@{k}", names));
    return key;
  },
});

/** Python's repr of a str (the quotes NeMo Gym's f-string `{task_id!r}` prints). */
function pyRepr(text: string): string {
  return text.includes("'") && !text.includes('"') ? `"${text}"` : `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}
