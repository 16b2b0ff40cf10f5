/** genrm_model: a local vLLM serving a generative reward model; the comparison payload in `metadata` becomes GenRM's custom-role messages. */
import type { JsonObject } from "../../../protocol/responses.ts";
import type { ServerFactory } from "../../../servers/registry.ts";
import { buildLocalVllmModel } from "../local_vllm_model/index.ts";

/**
 * After vllm_model's preprocessing: `metadata` is taken off the body (never sent to vLLM), and its `principle`
 * (only with `supports_principle_role`, default true), `response_1` and `response_2` are appended, in that
 * order, as messages with those roles — the roles GenRM's chat template reads.
 */
export function genrmMessages(supportsPrincipleRole: boolean): (body: JsonObject) => JsonObject {
  return (body) => {
    const metadata = ((body.metadata as JsonObject | null | undefined) ?? {}) as JsonObject;
    delete body.metadata;
    const messages = ((body.messages as JsonObject[] | undefined) ??= []);
    if (supportsPrincipleRole && metadata.principle) messages.push({ role: "principle", content: metadata.principle });
    if (metadata.response_1 != null) messages.push({ role: "response_1", content: metadata.response_1 });
    if (metadata.response_2 != null) messages.push({ role: "response_2", content: metadata.response_2 });
    return body;
  };
}

const factory: ServerFactory = async (block, context) => {
  const supportsPrincipleRole = (block as { supports_principle_role?: boolean }).supports_principle_role ?? true;
  return (await buildLocalVllmModel(block, context, { className: "GenRMModel", preprocessChat: genrmMessages(supportsPrincipleRole) })).app;
};

export default factory;
