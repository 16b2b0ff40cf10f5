/** valibot schema → JSON Schema (draft 2020-12), for `gym env schema`: the task-data schema comes from the server's own code. */

type Node = { type: string; [key: string]: unknown };
type Json = Record<string, unknown>;

/** Converts the valibot schema kinds a task-data model uses; anything else becomes `{}` with a description saying so. */
export function toJsonSchema(schema: Node, root = true): Json {
  const out = convert(schema);
  return root ? { $schema: "https://json-schema.org/draft/2020-12/schema", ...out } : out;
}

function convert(s: Node): Json {
  const base = kind(s);
  for (const action of (s.pipe as Node[] | undefined)?.slice(1) ?? []) applyAction(base, action);
  return base;
}

function kind(s: Node): Json {
  switch (s.type) {
    case "string":
      return { type: "string" };
    case "number":
      return { type: "number" };
    case "boolean":
      return { type: "boolean" };
    case "null":
      return { type: "null" };
    case "unknown":
    case "any":
      return {};
    case "literal":
      return { const: s.literal };
    case "picklist":
      return { enum: s.options };
    case "enum":
      return { enum: Object.values(s.enum as object) };
    case "array":
      return { type: "array", items: convert(s.item as Node) };
    case "tuple":
      return { type: "array", prefixItems: (s.items as Node[]).map(convert), minItems: (s.items as Node[]).length };
    case "record":
      return { type: "object", additionalProperties: convert(s.value as Node) };
    case "union":
    case "variant":
      return { anyOf: (s.options as Node[]).map(convert) };
    case "nullable":
      return { anyOf: [convert(s.wrapped as Node), { type: "null" }] };
    case "optional":
    case "exact_optional":
      return convert(s.wrapped as Node);
    case "nullish":
      return { anyOf: [convert(s.wrapped as Node), { type: "null" }] };
    case "object":
    case "loose_object":
    case "strict_object":
    case "object_with_rest": {
      const entries = s.entries as Record<string, Node>;
      const properties: Json = {};
      const required: string[] = [];
      for (const [key, value] of Object.entries(entries)) {
        properties[key] = convert(value);
        if (!["optional", "exact_optional", "nullish"].includes(value.type)) required.push(key);
      }
      const additional = s.type === "strict_object" ? false : s.type === "object_with_rest" ? convert(s.rest as Node) : true;
      return { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: additional };
    }
    default:
      return { description: `(valibot ${s.type}: no JSON Schema equivalent)` };
  }
}

function applyAction(target: Json, action: Node): void {
  const r = action.requirement;
  switch (action.type) {
    case "integer":
      target.type = "integer";
      break;
    case "min_length":
      target[target.type === "array" ? "minItems" : "minLength"] = r;
      break;
    case "max_length":
      target[target.type === "array" ? "maxItems" : "maxLength"] = r;
      break;
    case "min_value":
      target.minimum = r;
      break;
    case "max_value":
      target.maximum = r;
      break;
    case "regex":
      target.pattern = (r as RegExp).source;
      break;
    case "description":
      target.description = action.description;
      break;
    case "title":
      target.title = action.title;
      break;
  }
}
