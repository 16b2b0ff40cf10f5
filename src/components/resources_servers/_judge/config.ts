/** The judge's config keys, as NeMo Gym's judged servers declare them (`judge_model_server`, `judge_responses_create_params`, …). */
import { checkResponseCreateParams, type JsonObject } from "../../../protocol/responses.ts";
import { py, type Field } from "../../../servers/resources/index.ts";

/** `ModelServerRef`: `{type: responses_api_models, name: <instance>}`. */
export interface ModelServerRef extends JsonObject {
  type: string;
  name: string;
}

/** The judge's part of a server's config block (after checking: defaults filled in). */
export interface JudgeConfig extends JsonObject {
  judge_model_server: ModelServerRef;
  /** Base create params; `input` is replaced per judge call (a deep copy each time, as `model_copy(deep=True)`). */
  judge_responses_create_params: JsonObject;
  /** Post to `/v1/chat/completions` instead of `/v1/responses` (servers that offer the switch). */
  use_chat_completions_for_judge: boolean;
  /** Judge calls in flight per server instance; null = unlimited. NeMo Gym's default: 64. */
  judge_endpoint_max_concurrency: number | null;
}

const modelServerRef: Field = {
  schema: { type: "object", properties: { type: { const: "responses_api_models" }, name: { type: "string" } }, required: ["type", "name"] },
  check(x, loc, out) {
    const ok = x !== null && typeof x === "object" && !Array.isArray(x) && (x as JsonObject).type === "responses_api_models" && typeof (x as JsonObject).name === "string";
    if (ok) return x;
    out.push({ type: "model_type", loc, msg: "Input should be a model server reference {type: responses_api_models, name: <instance>}", input: x });
    return undefined;
  },
};

const createParams: Field = {
  schema: { type: "object" },
  check(x, loc, out) {
    const checked = checkResponseCreateParams(x);
    if (checked.ok) return x;
    const first = checked.error.detail[0];
    const where = first ? `${first.loc.slice(1).join(".")}: ${first.msg}` : "invalid";
    out.push({ type: "model_type", loc, msg: `Input should be valid Responses create params (${where})`, input: x });
    return undefined;
  },
};

/**
 * Fields to spread into a judged server's `config` spec. `useChatDefault` is the server's default for
 * `use_chat_completions_for_judge` (false everywhere in NeMo Gym; servers without the switch ignore it).
 */
export function judgeConfigFields(options: { maxConcurrency?: number | null; useChatDefault?: boolean } = {}): Record<string, Field> {
  const maxConcurrency = options.maxConcurrency === undefined ? 64 : options.maxConcurrency;
  return {
    judge_model_server: modelServerRef,
    judge_responses_create_params: createParams,
    use_chat_completions_for_judge: py.withDefault(py.bool(), () => options.useChatDefault ?? false),
    judge_endpoint_max_concurrency: py.optional(py.int(), () => maxConcurrency),
  };
}
