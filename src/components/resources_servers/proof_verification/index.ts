/**
 * proof_verification: the policy grades a proof (its final `\boxed{0|0.5|1}` after any `</think>`), scored
 * against the ground-truth score (`1 − |predicted − truth|`) times a meta-verifier judge's `\boxed{…}` score of how
 * well the policy's evaluation agrees with the reference evaluation (prompt_templates/meta-verifier.yaml).
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { pyLen, pyStrip } from "../_python/text.ts";
import { Judge, promptFromYaml, pyFormat, readPromptFile, type ModelServerRef } from "../_judge/index.ts";
import { judgeConfigFields } from "../_judge/config.ts";

export interface ProofVerificationConfig extends JsonObject {
  judge_model_server: ModelServerRef;
  judge_model_name: string;
  temperature: number;
  top_p: number;
  max_tokens: number;
  assert_think_end: boolean;
}

export const MAX_PROOF_CHARS = 40_000;
export const MAX_VERIFICATION_CHARS = 20_000;
const PY_FLOAT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** `extract_boxed_score`: the last `\boxed{…}` up to its first `}`, as a Python float, if it is 0, 0.5 or 1. */
export function extractBoxedScore(text: string): number | null {
  const start = text.lastIndexOf("\\boxed{");
  if (start < 0) return null;
  const from = start + "\\boxed{".length;
  const end = text.indexOf("}", from);
  if (end < 0) return null;
  const literal = pyStrip(text.slice(from, end));
  if (!PY_FLOAT.test(literal)) return null;
  const score = Number(literal);
  return score === 0 || score === 0.5 || score === 1 ? score : null;
}

/** The assistant messages' output_text parts, joined with no separator. */
export function assistantText(response: JsonObject): string {
  let text = "";
  for (const item of (Array.isArray(response?.output) ? response.output : []) as JsonObject[]) {
    if (item.type !== "message" || item.role !== "assistant") continue;
    for (const part of (Array.isArray(item.content) ? item.content : []) as JsonObject[]) if (part?.type === "output_text") text += (part.text as string) || "";
  }
  return text;
}

interface State {
  judge: Judge;
  template?: Promise<string>;
}

export default defineResourcesServer<ProofVerificationConfig, State>({
  name: "proof_verification",
  className: "ProofVerificationResourcesServer",
  config: {
    fields: {
      judge_model_server: judgeConfigFields().judge_model_server!,
      judge_model_name: py.withDefault(py.str(), () => ""),
      temperature: py.withDefault(py.float(), () => 0.6),
      top_p: py.withDefault(py.float(), () => 0.95),
      max_tokens: py.withDefault(py.int(), () => 100000),
      assert_think_end: py.withDefault(py.bool(), () => false),
    },
  },
  createState: (config, { servers }) => ({
    judge: new Judge({ judge_model_server: config.judge_model_server, judge_responses_create_params: {}, use_chat_completions_for_judge: false, judge_endpoint_max_concurrency: null }, servers),
  }),
  verify: {
    request: { fields: { problem: py.withDefault(py.str(), () => ""), proof: py.withDefault(py.str(), () => ""), ground_truth_judgement: py.str(), ground_truth_verify_score: py.float() } },
    // The response model is BaseVerifyResponse's: the request's fields are not echoed.
    response: [],
    async handler(body, { config, state }) {
      const full = assistantText(body.response as JsonObject);
      if (!full) return { reward: 0.0 };
      if (config.assert_think_end && !full.includes("</think>")) return { reward: 0.0 };
      const verification = pyStrip(full.split("</think>").at(-1)!);
      const predicted = extractBoxedScore(verification);
      if (predicted === null) return { reward: 0.0 };
      if (pyLen(body.proof as string) > MAX_PROOF_CHARS || pyLen(verification) > MAX_VERIFICATION_CHARS) return { reward: 0.0 };
      const truth = body.ground_truth_verify_score as number;
      if (truth !== 0 && truth !== 0.5 && truth !== 1) return { reward: 0.0 };
      const rScore = 1.0 - Math.abs(predicted - truth);
      state.template ??= readPromptFile("prompt_templates/meta-verifier.yaml", "proof_verification", "meta-verifier").then((t) => promptFromYaml(t, "user", "prompt_templates/meta-verifier.yaml"));
      const prompt = pyFormat(await state.template, { problem: body.problem as string, proof: body.proof as string, ground_truth_judgement: body.ground_truth_judgement as string, candidate_judgement: verification });
      const exchange = await state.judge.send({
        input: [{ role: "user", content: prompt }],
        model: config.judge_model_name || config.judge_model_server.name,
        temperature: config.temperature,
        top_p: config.top_p,
        max_output_tokens: config.max_tokens,
      });
      const rMeta = extractBoxedScore(assistantText(exchange.response)) || 0.0;
      return { reward: rScore * rMeta };
    },
  },
});
