/**
 * What a streaming Responses client (Codex CLI) sends, mapped onto the strict non-streaming create params
 * (as NeMo Gym's streaming dispatch does): `stream` and bookkeeping fields (`prompt_cache_key`,
 * `client_metadata`, …) dropped, `namespace` tools flattened to `<namespace>__<name>` functions (Codex's
 * `additional_tools` input item hoisted into `tools`), input items and tools gym cannot express dropped one by
 * one, and leading system/developer messages hoisted into `instructions`. The namespace map restores the
 * names on the way out.
 */
import { checkResponseCreateParams, ResponseCreateParamsSchema } from "../responses.ts";
import type { JsonObject } from "../responses-types.ts";

/** Flattened function name → the namespace and name the client knows it by. */
export type NamespaceMap = Map<string, { namespace: string; name: string }>;

const DELIMITER = "__";
const KNOWN_FIELDS = new Set(Object.keys(ResponseCreateParamsSchema.entries));

/** The cleaned body (ready for the strict check), the fields and items dropped, and the namespace map. */
export function streamingResponsesRequest(body: JsonObject): { body: JsonObject; namespaces: NamespaceMap; dropped: string[] } {
  const namespaces: NamespaceMap = new Map();
  const dropped: string[] = [];
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === "stream") continue;
    if (KNOWN_FIELDS.has(key)) out[key] = value;
    else dropped.push(key);
  }
  const tools = flatten(Array.isArray(body.tools) ? body.tools : [], namespaces);
  if (Array.isArray(out.input)) {
    const kept: JsonObject[] = [];
    for (const raw of out.input as JsonObject[]) {
      if (raw?.type === "additional_tools") {
        tools.push(...flatten((raw.tools as unknown[]) ?? [], namespaces).filter((tool) => tool.type === "function"));
        continue;
      }
      const item = raw?.type === "function_call" && raw.namespace ? renamed(raw) : raw;
      if (checkResponseCreateParams({ input: [item] }).ok) kept.push(item);
      else dropped.push(`input item of type ${JSON.stringify(raw?.type ?? null)}`);
    }
    const leading: string[] = typeof out.instructions === "string" && out.instructions ? [out.instructions] : [];
    while (kept.length && isSystemLike(kept[0]!)) leading.push(messageText(kept.shift()!));
    if (leading.some(Boolean)) out.instructions = leading.filter(Boolean).join("\n\n");
    out.input = kept;
  }
  if ("tools" in body || tools.length) {
    out.tools = tools.filter((tool) => {
      const ok = checkResponseCreateParams({ input: [], tools: [tool] }).ok;
      if (!ok) dropped.push(`tool of type ${JSON.stringify(tool.type ?? null)}`);
      return ok;
    });
  }
  return { body: out, namespaces, dropped };
}

/** A function call's name as the client knows it (namespace restored), or the item unchanged. */
export function restoreNamespace(item: JsonObject, namespaces: NamespaceMap): JsonObject {
  const known = item.type === "function_call" && typeof item.name === "string" ? namespaces.get(item.name) : undefined;
  return known ? { ...item, namespace: known.namespace, name: known.name } : item;
}

function flatten(tools: unknown[], namespaces: NamespaceMap): JsonObject[] {
  const flat: JsonObject[] = [];
  for (const tool of tools as JsonObject[]) {
    if (tool?.type !== "namespace") {
      flat.push(tool);
      continue;
    }
    const namespace = String(tool.name ?? "");
    for (const sub of (tool.tools as JsonObject[]) ?? []) {
      if (!sub?.name) continue;
      const joined = `${namespace}${DELIMITER}${sub.name}`;
      flat.push({ ...sub, type: "function", name: joined });
      namespaces.set(joined, { namespace, name: String(sub.name) });
    }
  }
  return flat;
}

function renamed(item: JsonObject): JsonObject {
  const { namespace, ...rest } = item;
  return { ...rest, name: `${namespace}${DELIMITER}${item.name}` };
}

function isSystemLike(item: JsonObject): boolean {
  return (item.type === undefined || item.type === "message") && (item.role === "system" || item.role === "developer");
}

function messageText(item: JsonObject): string {
  if (typeof item.content === "string") return item.content;
  return ((item.content as JsonObject[]) ?? [])
    .filter((part) => ["input_text", "output_text", "text"].includes(String(part?.type)))
    .map((part) => String(part.text ?? ""))
    .join("");
}
