/** The value half of a Hydra override (`+k=<value>`): lists, mappings, quoted strings, typed primitives, kept `${…}`. */
import { GymError } from "../errors.ts";
import type { ConfigMap, ConfigValue } from "./_tree.ts";

const DIGITS = "[0-9](?:_?[0-9])*";
const INT = new RegExp(`^[+-]?(?:0|[1-9](?:_?[0-9])*)$`);
const POINT_FLOAT = `(?:(?:${DIGITS})?\\.${DIGITS}|${DIGITS}\\.)`;
const FLOAT = new RegExp(`^[+-]?(?:${POINT_FLOAT}|(?:${DIGITS}|${POINT_FLOAT})[eE][+-]?${DIGITS}|[Ii][Nn][Ff]|[Nn][Aa][Nn])$`);
const SWEEP_FUNCTIONS = new Set(["choice", "range", "interval", "glob", "sort", "shuffle", "tag", "extend_list"]);
const CAST_FUNCTIONS = new Set(["str", "int", "float", "bool", "json_str"]);

/** Types one unquoted word the way Hydra does: int, float, bool, null, else the text itself. */
export function typePrimitive(text: string): ConfigValue {
  if (INT.test(text)) return Number(text.replace(/_/g, ""));
  if (FLOAT.test(text)) {
    const lower = text.toLowerCase().replace(/_/g, "");
    if (lower.endsWith("inf")) return lower.startsWith("-") ? -Infinity : Infinity;
    if (lower.endsWith("nan")) return NaN;
    return Number(lower);
  }
  if (/^true$/i.test(text)) return true;
  if (/^false$/i.test(text)) return false;
  if (/^null$/i.test(text)) return null;
  return text;
}

class ValueParser {
  pos = 0;
  constructor(
    readonly text: string,
    readonly token: string,
  ) {}

  fail(message: string, hint?: string): never {
    throw new GymError("E_OVERRIDE", `Cannot parse override '${this.token}': ${message}.`, {
      hint: hint ?? "Quote the value ('…' or \"…\") to keep it a plain string, or fix the brackets: lists are [a,b], mappings {k: v}.",
    });
  }

  peek(): string {
    return this.text[this.pos] ?? "";
  }

  skipSpace(): void {
    while (/\s/.test(this.peek())) this.pos++;
  }

  parseTop(): ConfigValue {
    this.skipSpace();
    if (this.pos >= this.text.length) return "";
    const value = this.parseElement(false);
    this.skipSpace();
    if (this.peek() === ",") {
      this.fail("an unquoted comma at the top level makes this a Hydra sweep, which Gym does not run", "Wrap several values in [...] to pass a list, or quote the value to keep the comma in a string.");
    }
    if (this.pos < this.text.length) this.fail(`unexpected '${this.peek()}' at position ${this.pos + 1} of the value`);
    return value;
  }

  parseElement(inDictKeyContext: boolean): ConfigValue {
    this.skipSpace();
    const ch = this.peek();
    if (ch === "[") return this.parseList();
    if (ch === "{") return this.parseDict();
    if (ch === "'" || ch === '"') {
      const value = this.parseQuoted();
      this.skipSpace();
      return value;
    }
    const fn = /^([A-Za-z_][\w]*)\s*\(/.exec(this.text.slice(this.pos));
    if (fn) return this.parseFunction(fn[1]!, fn[0].length);
    return this.parsePrimitive(inDictKeyContext);
  }

  parseList(): ConfigValue[] {
    this.pos++;
    const out: ConfigValue[] = [];
    this.skipSpace();
    if (this.peek() === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.parseElement(false));
      this.skipSpace();
      const ch = this.peek();
      this.pos++;
      if (ch === "]") return out;
      if (ch !== ",") this.fail(ch === "" ? "a list is missing its closing ']'" : `expected ',' or ']' in a list, found '${ch}'`);
    }
  }

  parseDict(): ConfigMap {
    this.pos++;
    const out: ConfigMap = {};
    this.skipSpace();
    if (this.peek() === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      const key = this.parsePrimitiveText(true).text.trim();
      if (key === "" || this.peek() !== ":") this.fail(`expected 'key: value' in a mapping${key ? ` after '${key}'` : ""}`);
      this.pos++;
      out[key] = this.parseElement(false);
      this.skipSpace();
      const ch = this.peek();
      this.pos++;
      if (ch === "}") return out;
      if (ch !== ",") this.fail(ch === "" ? "a mapping is missing its closing '}'" : `expected ',' or '}' in a mapping, found '${ch}'`);
    }
  }

  parseQuoted(): string {
    const quote = this.peek();
    this.pos++;
    let out = "";
    for (;;) {
      const ch = this.peek();
      if (ch === "") this.fail(`the quoted string has no closing ${quote}`);
      this.pos++;
      if (ch === "\\" && (this.peek() === quote || this.peek() === "\\")) {
        out += this.peek();
        this.pos++;
      } else if (ch === quote) return out;
      else out += ch;
    }
  }

  parseFunction(name: string, length: number): ConfigValue {
    if (SWEEP_FUNCTIONS.has(name)) this.fail(`'${name}(...)' is a Hydra sweep, which Gym does not run`);
    if (!CAST_FUNCTIONS.has(name)) this.fail(`'${name}(...)' is not a function Gym knows (cast functions: str, int, float, bool)`);
    this.pos += length;
    const arg = this.parseElement(false);
    this.skipSpace();
    if (this.peek() !== ")") this.fail(`'${name}(' takes one value and needs a closing ')'`);
    this.pos++;
    this.skipSpace();
    return cast(name, arg, (m) => this.fail(m));
  }

  parsePrimitive(inDictKey: boolean): ConfigValue {
    const { text, plain } = this.parsePrimitiveText(inDictKey);
    const trimmed = text.trim();
    if (trimmed === "" && !plain) return "";
    if (trimmed === "") this.fail(`a value is missing at position ${this.pos + 1}`);
    return plain ? typePrimitive(trimmed) : trimmed;
  }

  /** Reads an unquoted run; `plain` is false when escapes or interpolations make it a string for sure. */
  parsePrimitiveText(stopAtColon: boolean): { text: string; plain: boolean } {
    let text = "";
    let plain = true;
    for (;;) {
      const ch = this.peek();
      if (ch === "" || ch === "," || ch === "]" || ch === "}" || ch === "[" || ch === "{" || ch === ")" || ch === "(") break;
      if (stopAtColon && ch === ":") break;
      if (ch === "\\" && /[\\,:=[\]{}() \t'"]/.test(this.text[this.pos + 1] ?? "")) {
        text += this.text[this.pos + 1];
        this.pos += 2;
        plain = false;
        continue;
      }
      if (ch === "$" && this.text[this.pos + 1] === "{") {
        text += this.readInterpolation();
        plain = false;
        continue;
      }
      text += ch;
      this.pos++;
    }
    return { text, plain };
  }

  readInterpolation(): string {
    const start = this.pos;
    let depth = 0;
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos]!;
      if (ch === "$" && this.text[this.pos + 1] === "{") {
        depth++;
        this.pos += 2;
        continue;
      }
      this.pos++;
      if (ch === "}" && --depth === 0) return this.text.slice(start, this.pos);
    }
    this.fail("an interpolation '${' has no closing '}'");
  }
}

function cast(name: string, value: ConfigValue, fail: (m: string) => never): ConfigValue {
  if (name === "str" || name === "json_str") return typeof value === "string" ? value : name === "json_str" ? JSON.stringify(value) : pyScalar(value);
  if (name === "bool") {
    if (typeof value === "string") {
      if (/^true$/i.test(value)) return true;
      if (/^false$/i.test(value)) return false;
      fail(`bool() cannot convert '${value}'`);
    }
    return Boolean(value);
  }
  const n = typeof value === "string" ? Number(value.trim()) : typeof value === "boolean" ? Number(value) : (value as number);
  if (typeof n !== "number" || Number.isNaN(n)) fail(`${name}() cannot convert '${String(value)}'`);
  return name === "int" ? Math.trunc(n) : n;
}

function pyScalar(value: ConfigValue): string {
  if (value === true) return "True";
  if (value === false) return "False";
  if (value === null) return "None";
  return String(value);
}

/** Parses the text after `=` in an override token (the whole token is only used in messages). */
export function parseOverrideValue(text: string, token = text): ConfigValue {
  return new ValueParser(text, token).parseTop();
}
