/**
 * The judge component: what every LLM-as-judge resources server uses to reach its judge (issue 11).
 *
 * Config (NeMo Gym's YAML, unchanged): a judged server's block names
 *
 *     judge_model_server: {type: responses_api_models, name: genrm_model}
 *     judge_responses_create_params: {input: [], max_output_tokens: 2048, temperature: 0.0}
 *     use_chat_completions_for_judge: false      # servers that offer the switch (simpleqa, …)
 *     judge_endpoint_max_concurrency: 64         # judge calls in flight per server instance (null = no bound)
 *
 * and the user supplies the `genrm_model` instance with `--config judge.yaml` (any model type: openai_model,
 * vllm_model, …; its key is masked like the policy's). A missing instance is refused before dispatch by the
 * config layer's reference check, which names the field, the instance and the config to add.
 *
 * Use from a server (see simpleqa/index.ts):
 *
 *     import { Judge, judgeConfigFields, type JudgeConfig } from "../_judge/index.ts";
 *     defineResourcesServer<MyConfig, Judge>({
 *       config: { fields: { ...judgeConfigFields(), my_key: py.str() } },
 *       createState: (config, { servers }) => new Judge(config, servers),
 *       verify: { async handler(body, { state: judge }) {
 *         const exchange = await judge.responses([{ role: "user", content: prompt }]);   // or judge.chatCompletions({...})
 *         const text = lastOutputText(exchange.response);                                // verdict text
 *         return { reward, judge_evaluations: [{ ...exchange, verdict_label }] };
 *       } },
 *     });
 *
 * Failures: `judge.responses` / `judge.chatCompletions` raise `JudgeError` for any failed *call* (connection,
 * timeout, non-2xx after the model server's own retries, 429s waited out first, a body that is not JSON or not a
 * Responses object / chat completion). Throw `JudgeError` yourself where the server's rules make an answer a
 * failure (simpleqa: an empty judge text). `defineResourcesServer` turns it into NeMo Gym's row
 * `{…request, reward: 0.0, _ng_failure_class: "judge_failed", _ng_failure_judge_error}`; the collector routes it
 * to `<stem>_failures.jsonl` with the policy `response` kept, and `gym eval reverify --judge-failed-only`
 * re-judges exactly those rows. An answer received but unparseable is a verdict, not a failure (score it).
 *
 * Prompts: `readPromptFile(path, server, key)` finds NeMo Gym's relative template paths among the built-in
 * files (embedded in the binary) or on disk; `pyFormat` fills them as Python's `str.format`.
 */
export { judgeConfigFields, type JudgeConfig, type ModelServerRef } from "./config.ts";
export { Judge, setJudgeProbe, type JudgeExchange, type JudgeProbe } from "./call.ts";
export { fillPrompt, promptFromYaml, promptTemplatesFromYaml, pyFormat, readPromptFile, type PromptTemplates } from "./prompts.ts";
export { chatText, lastAssistantText, lastOutputText, lastUserText, stripThinking } from "./text.ts";
export { JudgeError } from "../../../servers/resources/index.ts";
