/** aalcr: AA-LCR long-context answers judged CORRECT / INCORRECT by one LLM call; the reward is also filed under the row's input-token band. */
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { outputText } from "../_common/output.ts";
import { pyStrip } from "../_python/text.ts";
import { Judge, JudgeError, type ModelServerRef } from "../_judge/index.ts";
import { judgeConfigFields } from "../_judge/config.ts";

export interface AalcrConfig extends JsonObject {
  judge_model_server: ModelServerRef;
  judge_responses_create_params_overrides: JsonObject;
}

/** `input_tokens_band` → the response key that repeats the reward. */
export const BAND_KEYS: Record<string, string> = {
  "<80k": "reward_lt_80k",
  "80k-100k": "reward_80k_100k",
  "100k-110k": "reward_100k_110k",
  "110k-128k": "reward_110k_128k",
  "128k+": "reward_128k_plus",
};

/** The judge prompt, as app.py writes it (an f-string in NeMo Gym's code). */
export function judgePrompt(question: string, answer: string, candidate: string): string {
  return `Assess whether the following CANDIDATE ANSWER is CORRECT or INCORRECT.
For the CANDIDATE ANSWER to be correct, it must be consistent with the OFFICIAL ANSWER.

The question, for reference only: ${question}
The OFFICIAL ANSWER: ${answer}
CANDIDATE ANSWER TO ASSESS: ${candidate}

Reply only with CORRECT or INCORRECT.`;
}

export default defineResourcesServer<AalcrConfig, Judge>({
  name: "aalcr",
  className: "AalcrResourcesServer",
  config: { fields: { judge_model_server: judgeConfigFields().judge_model_server!, judge_responses_create_params_overrides: py.dict() } },
  // app.py calls the judge with no concurrency bound of its own.
  createState: (config, { servers }) =>
    new Judge({ judge_model_server: config.judge_model_server, judge_responses_create_params: {}, use_chat_completions_for_judge: false, judge_endpoint_max_concurrency: null }, servers),
  verify: {
    request: {
      fields: {
        document_category: py.str(),
        document_set_id: py.str(),
        question_id: py.int(),
        question: py.str(),
        answer: py.str(),
        data_source_filenames: py.str(),
        data_source_urls: py.str(),
        input_tokens: py.int(),
        input_tokens_band: py.str(),
      },
    },
    response: [
      "document_category", "document_set_id", "question_id", "question", "answer", "data_source_filenames", "data_source_urls", "input_tokens", "input_tokens_band",
      "invalid_model_response", "invalid_judge_response", "judge_responses_create_params", "judge_response",
      "reward_lt_80k", "reward_80k_100k", "reward_100k_110k", "reward_110k_128k", "reward_128k_plus",
    ],
    async handler(body, { config, state: judge }) {
      const band = BAND_KEYS[body.input_tokens_band as string];
      // Python's `match` with no case taken leaves the key unbound: an UnboundLocalError (a 500), as in app.py.
      if (band === undefined) throw new Error(`UnboundLocalError: input_tokens_band '${String(body.input_tokens_band)}' is none of ${Object.keys(BAND_KEYS).join(", ")}`);
      const bands: JsonObject = { reward_lt_80k: null, reward_80k_100k: null, reward_100k_110k: null, reward_110k_128k: null, reward_128k_plus: null };
      const candidate = pyStrip(outputText(body.response as JsonObject));
      if (!candidate) return { reward: 0.0, invalid_model_response: true, invalid_judge_response: null, judge_responses_create_params: null, judge_response: null, ...bands, [band]: 0.0 };
      // `dict(input=[…]) |= overrides`: the overrides win, even over `input`.
      const params: JsonObject = { input: [{ role: "user", content: judgePrompt(body.question as string, body.answer as string, candidate) }], ...config.judge_responses_create_params_overrides };
      const exchange = await judge.send(params);
      const verdict = pyStrip(outputText(exchange.response));
      if (!verdict) throw new JudgeError("empty judge response");
      const reward = verdict === "CORRECT" ? 1.0 : 0.0;
      return {
        reward,
        invalid_model_response: false,
        invalid_judge_response: verdict !== "CORRECT" && verdict !== "INCORRECT",
        judge_responses_create_params: exchange.responses_create_params,
        judge_response: exchange.response,
        ...bands,
        [band]: reward,
      };
    },
  },
});
