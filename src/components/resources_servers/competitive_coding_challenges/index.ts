/**
 * competitive_coding_challenges (CCC; benchmark ioi): the last ```cpp block of the assistant's text (with NeMo Gym's
 * includes) is compiled by the problem's `compile.sh` and run on its tests by `run.sh`, all in the sandbox; subtask
 * scores as IOI counts them; reward (binary) 1 when the asked subtask, or the whole problem, reaches its full score,
 * or (fraction) the share of tests passed. Metrics: pass@k of `accuracy` plus the contest `total_score`.
 */
import { GymError } from "../../../errors.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { Semaphore } from "../../../jsonl/concurrency.ts";
import { computePassMajorityMetrics, highestKMetrics } from "../../../metrics/pass-k.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import { openSandbox, sandboxMode, type Sandbox } from "../../../sandbox/index.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { assistantTexts } from "../_common/output.ts";
import { pyStrip } from "../_python/text.ts";
import { programMemoryBytes } from "../code_gen/grade.ts";
import { evaluate } from "./evaluate.ts";
import { solutionCode } from "./extract.ts";
import { metadataFor } from "./metadata-cache.ts";
import type { ProblemIndex } from "./metadata.ts";
import { binaryReward, fractionReward, subtaskCap, type Request } from "./reward.ts";
import { problemScores } from "./metrics.ts";

export interface CccConfig extends JsonObject {
  test_file: string;
  test_batch_size: number;
  num_parallel_requests: number;
  time_scale: number;
  shared_dir: string;
  reward_mode: string;
  sandbox: string | null;
  memory_limit_mb: number | null;
}

interface State {
  slots: Semaphore;
  sandbox: Promise<Sandbox>;
  metadata: Promise<ProblemIndex>;
}

const score = (r: JsonObject) => {
  const results = ((r.details as JsonObject | null)?.test_case_results ?? {}) as Record<string, JsonObject>;
  const values = Object.values(results);
  if (!values.length) return { accuracy: pyFloat(0) };
  return { accuracy: pyFloat(values.every((s) => Number(s?.score ?? 0) > 0) ? 1 : 0) };
};

export default defineResourcesServer<CccConfig, State>({
  name: "competitive_coding_challenges",
  className: "CompetitiveCodingChallengesResourcesServer",
  reverifyMode: "stateless",
  config: {
    fields: {
      test_file: py.withDefault(py.str(), () => "data/test_metadata.jsonl"),
      test_batch_size: py.withDefault(py.int(), () => 32),
      num_parallel_requests: py.withDefault(py.int(), () => 16),
      time_scale: py.withDefault(py.float(), () => 2.0),
      shared_dir: py.withDefault(py.str(), () => "/tmp"),
      reward_mode: py.withDefault(py.literal(["binary", "fraction"]), () => "binary"),
      sandbox: py.optional(py.str()),
      memory_limit_mb: py.optional(py.int()),
    },
  },
  createState(config) {
    // NeMo Gym pre-loads the file at start-up; here it loads right after, and a missing or broken file fails every verify.
    const metadata = Promise.resolve().then(() => metadataFor(config.test_file));
    const sandbox = openSandbox(sandboxMode(config.sandbox), "competitive_coding_challenges");
    sandbox.catch(() => {}); // both reported by the first verify
    metadata.catch(() => {});
    return { slots: new Semaphore(Math.max(1, config.test_batch_size)), sandbox, metadata };
  },
  verify: {
    request: {
      fields: {
        competition_id: py.optional(py.str()),
        problem_id: py.str(),
        subtask: py.optional(py.str()),
        name: py.optional(py.str()),
        subtask_score: py.optional(py.float()),
      },
      extra: "allow",
    },
    response: ["competition_id", "problem_id", "subtask", "name", "subtask_score", "details", "num_tests_run", "total_test_execution_time_s", "mean_test_execution_time_s"],
    echoExtra: true,
    async handler(body, { config, state }) {
      const request = body as unknown as Request & JsonObject;
      const name = (body.name as string | null) || (body.problem_id as string);
      const index = await state.metadata;
      let reward = 0;
      let details: JsonObject = {};
      try {
        const competitionId = request.competition_id || null;
        const problem = index.get(request.problem_id, competitionId);
        const generation = pyStrip(assistantTexts(body.response as JsonObject).join("\n"));
        const { code, taskType } = solutionCode(generation, problem.grader_files, problem.problem_header_include, request.problem_id);
        const sandbox = await state.sandbox;
        const concurrency = Math.max(1, Math.min(config.test_batch_size, config.num_parallel_requests));
        const evaluation = await evaluate(
          sandbox,
          problem,
          { problemId: request.problem_id, name, subtask: request.subtask ?? null, code, taskType, totalTime: Number(body.total_time ?? 0) || 0 },
          {
            testBatchSize: Math.max(1, config.test_batch_size),
            timeScale: config.time_scale,
            runAllTests: config.reward_mode === "fraction",
            limits: { memoryBytes: programMemoryBytes(concurrency, config.memory_limit_mb), processes: 64 },
            slots: state.slots,
          },
        );
        details = evaluation as unknown as JsonObject;
        reward = config.reward_mode === "fraction" ? fractionReward(request, evaluation) : binaryReward(request, evaluation, index);
      } catch (error) {
        if (error instanceof GymError) throw error; // no sandbox (or a broken one) is the server's failure, not a 0
        details = { error: error instanceof Error ? error.message : String(error) };
      }
      return {
        reward,
        name,
        details,
        num_tests_run: (details.num_tests_run as number | undefined) ?? 0,
        total_test_execution_time_s: (details.total_test_execution_time_s as number | undefined) ?? pyFloat(0),
        mean_test_execution_time_s: (details.mean_test_execution_time_s as number | undefined) ?? pyFloat(0),
      };
    },
  },
  computeMetrics(tasks, config) {
    const metrics = computePassMajorityMetrics(tasks, { scoreFn: score, answerKey: "extracted_code" }).metrics;
    let index = null;
    try {
      index = metadataFor(config.test_file);
    } catch {}
    const { total, perProblem } = problemScores(tasks, (problemId, competitionId, subtask) => (index ? subtaskCap(index, problemId, competitionId, subtask) : 0));
    return { ...metrics, total_score: Math.trunc(total), per_problem_subtask_scores: perProblem };
  },
  keyMetrics(agentMetrics) {
    const key: JsonObject = {};
    Object.assign(key, highestKMetrics(agentMetrics, "pass@1[avg-of-{k}]", ["accuracy"]));
    Object.assign(key, highestKMetrics(agentMetrics, "pass@{k}", ["accuracy"]));
    if ("total_score" in agentMetrics) key.total_score = agentMetrics.total_score;
    return key;
  },
});
