/**
 * proof_judge: theorem proving with a verifier judge and an optional meta-verifier (NeMo Gym's `proof_judge`). The
 * policy writes `## Solution` then `## Self Evaluation` ending in `\boxed{0|0.5|1}`; the verifier judge scores the
 * proof (r_y), the meta-verifier the self-evaluation (r_meta); reward = alpha·r_y + beta·(1 − |s′ − r_y|)·r_meta.
 * Optionally a group whose proofs all score r_y = 0 gets reward 0 for every member.
 */
import { appendFileSync } from "node:fs";
import { GymError } from "../../../errors.ts";
import { pyFloat, stringifyPython } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { pyLen, pyStrip } from "../_python/text.ts";
import { Judge, promptFromYaml, pyFormat, readPromptFile, type ModelServerRef } from "../_judge/index.ts";
import { judgeConfigFields } from "../_judge/config.ts";
import { assistantText, extractBoxedScore, MAX_PROOF_CHARS, MAX_VERIFICATION_CHARS } from "../proof_verification/index.ts";

export interface ProofJudgeConfig extends JsonObject {
  judge_model_server: ModelServerRef;
  judge_model_name: string;
  alpha: number;
  beta: number;
  temperature: number;
  top_p: number;
  max_tokens: number;
  zero_reward_incorrect_groups: boolean;
  expected_group_size: number;
  assert_think_end: boolean;
}

type Details = Record<string, unknown>;

/** `parse_response`: (proof, self-evaluation, s′) after the last `</think>`, or the reason it cannot be parsed. */
export function parseProof(response: string, assertThinkEnd: boolean): [string, string, number] | string {
  if (assertThinkEnd && !response.includes("</think>")) return "missing_think_end";
  const text = pyStrip(response.split("</think>").at(-1)!);
  const at = text.indexOf("## Solution");
  if (at < 0) return "missing_solution_header";
  const after = text.slice(at + "## Solution".length);
  const evalAt = after.indexOf("## Self Evaluation");
  if (evalAt < 0) return "missing_self_eval_header";
  const proof = pyStrip(after.slice(0, evalAt));
  const selfEval = pyStrip(after.slice(evalAt + "## Self Evaluation".length));
  const sPrime = extractBoxedScore(selfEval);
  return sPrime === null ? "invalid_boxed_score" : [proof, selfEval, sPrime];
}

function tooLong(text: string, name: string, max: number): Details | undefined {
  const length = pyLen(text);
  return length <= max ? undefined : { r_format: 0.0, reason: `${name}_too_long`, [`${name}_length`]: length, [`${name}_max_length`]: max, judge_generated_tokens: 0 };
}

/** `extract_generated_token_count`: usage.output_tokens, else completion_tokens, else 0. */
function generatedTokens(response: JsonObject): number {
  const usage = response.usage as JsonObject | null | undefined;
  if (!usage || typeof usage !== "object") return 0;
  if (usage.output_tokens !== undefined && usage.output_tokens !== null) return Math.trunc(Number(usage.output_tokens));
  if (usage.completion_tokens !== undefined && usage.completion_tokens !== null) return Math.trunc(Number(usage.completion_tokens));
  return 0;
}

interface Group {
  rewards: number[];
  zero?: boolean;
  done: Promise<void>;
  release: () => void;
}

interface State {
  judge: Judge;
  templates?: Promise<[string, string]>;
  groups: Map<string, Group>;
}

async function templates(state: State): Promise<[string, string]> {
  const load = (file: string) => readPromptFile(`prompt_templates/${file}`, "proof_judge", file).then((t) => promptFromYaml(t, "user", `prompt_templates/${file}`));
  state.templates ??= Promise.all([load("verifier.yaml"), load("meta-verifier.yaml")]);
  return state.templates;
}

async function callJudge(state: State, config: ProofJudgeConfig, content: string): Promise<[string, number]> {
  const exchange = await state.judge.send({
    input: [{ role: "user", content }],
    model: config.judge_model_name || config.judge_model_server.name,
    temperature: config.temperature,
    top_p: config.top_p,
    max_output_tokens: config.max_tokens,
  });
  return [assistantText(exchange.response), generatedTokens(exchange.response)];
}

async function judgeProof(state: State, config: ProofJudgeConfig, problem: string, full: string): Promise<[number, Details]> {
  const parsed = parseProof(full, config.assert_think_end);
  if (typeof parsed === "string") return [0.0, { r_format: 0.0, reason: parsed, judge_generated_tokens: 0 }];
  const [proof, selfEval, sPrime] = parsed;
  const long = tooLong(proof, "proof", MAX_PROOF_CHARS) ?? tooLong(selfEval, "self_verification", MAX_VERIFICATION_CHARS);
  if (long) return [0.0, long];
  const [verifierTemplate, metaTemplate] = await templates(state);
  const verifierPrompt = pyFormat(verifierTemplate, { problem, proof });
  if (config.beta === 0) {
    const [verifierResponse, tokens] = await callJudge(state, config, verifierPrompt);
    const rY = extractBoxedScore(verifierResponse) || 0.0;
    return [config.alpha * rY, { r_y: rY, s_prime: sPrime, judge_generated_tokens: tokens, verifier_generated_tokens: tokens, verifier_response: verifierResponse }];
  }
  const metaPrompt = pyFormat(metaTemplate, { problem, proof, proof_analysis: selfEval });
  const [[verifierResponse, vTokens], [metaResponse, mTokens]] = await Promise.all([callJudge(state, config, verifierPrompt), callJudge(state, config, metaPrompt)]);
  const rY = extractBoxedScore(verifierResponse) || 0.0;
  const rMeta = extractBoxedScore(metaResponse) || 0.0;
  const rZ = (1.0 - Math.abs(sPrime - rY)) * rMeta;
  return [
    config.alpha * rY + config.beta * rZ,
    { judge_generated_tokens: vTokens + mTokens, r_y: rY, r_meta: rMeta, s_prime: sPrime, verifier_generated_tokens: vTokens, meta_generated_tokens: mTokens, verifier_response: verifierResponse, meta_response: metaResponse },
  ];
}

/** Waits for the whole group of `problem` (expected_group_size rollouts); all r_y = 0 zeroes every member's reward. */
async function groupGate(state: State, config: ProofJudgeConfig, problem: string, reward: number, details: Details): Promise<[number, Details]> {
  if (!config.zero_reward_incorrect_groups) return [reward, details];
  if (!problem) throw new Error("ValueError: problem must be set when zero_reward_incorrect_groups is enabled");
  let group = state.groups.get(problem);
  if (!group) {
    let release = () => {};
    const done = new Promise<void>((resolve) => (release = resolve));
    group = { rewards: [], done, release };
    state.groups.set(problem, group);
  }
  group.rewards.push("r_y" in details ? Number(details.r_y) : 0.0);
  if (group.rewards.length === config.expected_group_size) {
    group.zero = group.rewards.every((r) => r === 0);
    state.groups.delete(problem);
    group.release();
  } else await group.done;
  if (!group.zero) return [reward, { ...details, group_all_r_y_zero: false }];
  return [0.0, { ...details, original_reward: reward, group_all_r_y_zero: true }];
}

/** PROOF_JUDGE_LOG_JSONL_PATH: one line per verification (time, problem, the policy's text, reward, details); failures only warn. */
const FLOATS = new Set(["reward", "r_format", "r_y", "r_meta", "s_prime", "original_reward"]);
function appendLog(path: string, fields: Details): void {
  const record: JsonObject = {};
  for (const [k, v] of Object.entries(fields)) record[k] = FLOATS.has(k) && typeof v === "number" ? pyFloat(v) : v;
  try {
    appendFileSync(path, `${stringifyPython(record, { spaced: true })}\n`);
  } catch (error) {
    console.warn(`[proof_judge] Failed to append log_jsonl ${path}: ${(error as Error).message}`);
  }
}

export default defineResourcesServer<ProofJudgeConfig, State>({
  name: "proof_judge",
  className: "ProofWithJudgeResourcesServer",
  config: {
    fields: {
      judge_model_server: judgeConfigFields().judge_model_server!,
      judge_model_name: py.withDefault(py.str(), () => ""),
      alpha: py.withDefault(py.float(), () => 1.0),
      beta: py.withDefault(py.float(), () => 0.0),
      temperature: py.withDefault(py.float(), () => 0.6),
      top_p: py.withDefault(py.float(), () => 0.95),
      max_tokens: py.withDefault(py.int(), () => 100000),
      zero_reward_incorrect_groups: py.withDefault(py.bool(), () => false),
      expected_group_size: py.withDefault(py.int(), () => -1),
      assert_think_end: py.withDefault(py.bool(), () => false),
    },
  },
  createState(config, { name, servers }) {
    if (config.zero_reward_incorrect_groups && config.expected_group_size <= 0) {
      throw new GymError("E_CONFIG", `Invalid config for resources server '${name}': expected_group_size must be > 0 when zero_reward_incorrect_groups is enabled.`, {
        hint: `Set ${name}.resources_servers.proof_judge.expected_group_size to the number of rollouts per problem (num_repeats).`,
      });
    }
    return {
      judge: new Judge({ judge_model_server: config.judge_model_server, judge_responses_create_params: {}, use_chat_completions_for_judge: false, judge_endpoint_max_concurrency: null }, servers),
      groups: new Map(),
    };
  },
  verify: {
    request: { fields: { problem: py.withDefault(py.str(), () => "") } },
    // The response model is BaseVerifyResponse's: only the reward is added (details go to the optional log).
    response: [],
    async handler(body, { config, state }) {
      const problem = body.problem as string;
      const full = assistantText(body.response as JsonObject);
      let [reward, details]: [number, Details] = full ? await judgeProof(state, config, problem, full) : [0.0, { r_format: 0.0, reason: "empty_response", judge_generated_tokens: 0 }];
      [reward, details] = await groupGate(state, config, problem, reward, details);
      const log = process.env.PROOF_JUDGE_LOG_JSONL_PATH;
      if (log) appendLog(log, { ts: new Date().toISOString().replace("Z", "000+00:00"), problem, generated_sequence: full, reward, ...details });
      return { reward };
    },
  },
});
