/**
 * One judge pass with a prompt YAML, for math_with_judge's subclasses that grade once (physics_judge, ugphysics_judge):
 * over `/v1/responses`, or with `use_chat_completions_for_judge` over `/v1/chat/completions` (max_tokens, temperature
 * and top_p from the Responses params with Python's `or` defaults 2048 / 0.0 / 1.0), the chat answer wrapped in a
 * minimal Responses object (`msg_chat`) so `judge_evaluations` keeps one shape.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { dumpResponse, dumpResponseCreateParams } from "../../../protocol/responses-dump.ts";
import { py } from "../../../servers/resources/index.ts";
import { fillPrompt, promptTemplatesFromYaml, readPromptFile, type Judge, type JudgeExchange, type PromptTemplates } from "../_judge/index.ts";

export interface SingleJudgeConfig extends JsonObject {
  judge_responses_create_params: JsonObject;
  use_chat_completions_for_judge: boolean;
  judge_prompt_path: string;
}

/** The two fields a single-pass subclass adds to math_with_judge's, its prompt under `resources_servers/<server>/prompts/`. */
export function singleJudgeFields(server: string) {
  return {
    use_chat_completions_for_judge: py.withDefault(py.bool(), () => false),
    judge_prompt_path: py.withDefault(py.str(), () => `resources_servers/${server}/prompts/judge.yaml`),
  };
}

/** The prompt YAML named by `judge_prompt_path`, read once per server. */
export class JudgePrompt {
  private templates?: Promise<PromptTemplates>;
  constructor(private readonly server: string) {}
  messages(config: SingleJudgeConfig, values: Record<string, string>): Promise<{ role: string; content: string }[]> {
    this.templates ??= readPromptFile(config.judge_prompt_path, this.server, "judge_prompt_path").then((t) => promptTemplatesFromYaml(t, config.judge_prompt_path));
    return this.templates.then((t) => fillPrompt(t, values));
  }
}

/** The judged text: the chat content (null when empty), or the Responses answer's last item's last part when it is output_text (else null). */
export interface SingleJudgeAnswer {
  exchange: JudgeExchange;
  text: string | null;
}

const orDefault = (value: unknown, fallback: number) => (value === undefined || value === null || value === 0 ? fallback : value);

export async function askSingleJudge(judge: Judge, config: SingleJudgeConfig, messages: { role: string; content: string }[]): Promise<SingleJudgeAnswer> {
  const params: JsonObject = { ...structuredClone(config.judge_responses_create_params), input: messages.map((m) => ({ role: m.role, content: m.content })) };
  if (!config.use_chat_completions_for_judge) {
    const exchange = await judge.send(params);
    const last = (exchange.response.output as JsonObject[] | undefined)?.at(-1);
    const part = last?.type === "message" ? (last.content as JsonObject[] | undefined)?.at(-1) : undefined;
    return { exchange, text: part?.type === "output_text" ? String(part.text) : null };
  }
  const completion = await judge.chatCompletions({
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
    max_tokens: orDefault(params.max_output_tokens, 2048),
    temperature: orDefault(params.temperature, 0.0),
    top_p: orDefault(params.top_p, 1.0),
  });
  const choice = (completion.choices as JsonObject[])[0];
  const content = (choice?.message as JsonObject | undefined)?.content;
  const text = typeof content === "string" && content ? content : null;
  const response = dumpResponse({
    id: completion.id,
    created_at: completion.created,
    model: completion.model,
    object: "response",
    output: [{ id: "msg_chat", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: text ?? "", annotations: [] }] }],
    parallel_tool_calls: false,
    tool_choice: "none",
    tools: [],
  });
  return { exchange: { responses_create_params: dumpResponseCreateParams(params), response }, text };
}
