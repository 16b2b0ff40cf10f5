/** Python `str.format_map` for prompt templates: `{field}` from the row, `{{`/`}}` escapes, Python's str() of values. */
import { GymError } from "../errors.ts";

/** One piece of a parsed template: literal text or a field name. */
export type TemplatePart = { text: string } | { field: string };

/**
 * Parses a template. Plain `{name}` fields only: indexing (`{a[0]}`), attributes (`{a.b}`), conversions
 * (`{x!r}`), format specs (`{x:>10}`) and positional fields are refused with a clear error rather than
 * half-emulated (NeMo Gym's own templates never use them). `where` names the template in errors.
 */
export function parseTemplate(template: string, where: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let text = "";
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c === "}") {
      if (template[i + 1] === "}") {
        text += "}";
        i++;
        continue;
      }
      throw templateError(where, `a single '}' at character ${i + 1}`, "Write `}}` for a literal closing brace.");
    }
    if (c !== "{") {
      text += c;
      continue;
    }
    if (template[i + 1] === "{") {
      text += "{";
      i++;
      continue;
    }
    const end = template.indexOf("}", i + 1);
    if (end === -1) throw templateError(where, `a '{' at character ${i + 1} that is never closed`, "Write `{{` for a literal opening brace.");
    const field = template.slice(i + 1, end);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) {
      throw templateError(
        where,
        `the placeholder '{${field}}' at character ${i + 1}`,
        /^\d*$/.test(field)
          ? "Placeholders name a top-level field of the row, e.g. {question}; positional fields are not supported."
          : "Only plain {field} placeholders are supported (no [index], .attribute, !conversion or :format); write `{{` and `}}` for literal braces.",
      );
    }
    if (text) parts.push({ text });
    text = "";
    parts.push({ field });
    i = end;
  }
  if (text) parts.push({ text });
  return parts;
}

/** Fills parsed parts from a row; a missing field names the field and the row's fields (as NeMo Gym does). */
export function fillTemplate(parts: TemplatePart[], row: Record<string, unknown>, where: string): string {
  let out = "";
  for (const part of parts) {
    if ("text" in part) {
      out += part.text;
      continue;
    }
    if (!(part.field in row)) {
      throw new GymError("E_INPUT_SCHEMA", `${where}: the prompt template references field '${part.field}' but the row only has fields: ${pyRepr(Object.keys(row))}.`, {
        hint: `Add '${part.field}' to every row, or change the template's placeholder.`,
      });
    }
    out += pyStr(row[part.field]);
  }
  return out;
}

/** Python `str()` of a JSON value (strings as is; True/False/None; containers as repr). */
export function pyStr(value: unknown): string {
  return typeof value === "string" ? value : pyRepr(value);
}

/** Python `repr()` of a JSON value, enough for templates that embed lists or dicts. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return quotePy(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  return `{${Object.entries(value as object)
    .map(([k, v]) => `${quotePy(k)}: ${pyRepr(v)}`)
    .join(", ")}}`;
}

function quotePy(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");
  return quote + (quote === "'" ? body.replace(/'/g, "\\'") : body) + quote;
}

function templateError(where: string, what: string, hint: string): GymError {
  return new GymError("E_CONFIG", `${where}: the prompt template has ${what}.`, { hint });
}
