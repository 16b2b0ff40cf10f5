import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GymError } from "../errors.ts";
import { PyFloat } from "../metrics/pyjson.ts";
import { type RowShape, RowReader, SKIPPED_ARRAY, SKIPPED_OBJECT, SKIPPED_STRING } from "./rows.ts";

const dir = mkdtempSync(join(tmpdir(), "gym-rows-"));
let n = 0;
function file(text: string | Uint8Array): string {
  const path = join(dir, `f${n++}.jsonl`);
  writeFileSync(path, text);
  return path;
}

async function read(text: string | Uint8Array, shape: RowShape = {}) {
  const reader = new RowReader(shape);
  const out: { row: Record<string, unknown>; line: number; offset: number; length: number; text: string }[] = [];
  for await (const b of reader.batches(file(text))) b.rows.forEach((row, i) => out.push({ row, line: b.lines[i]!, offset: b.offsets[i]!, length: b.lengths[i]!, text: b.text(i) }));
  return { out, reader };
}

async function failure(text: string | Uint8Array, shape: RowShape = {}): Promise<GymError> {
  try {
    await read(text, shape);
  } catch (error) {
    expect(error).toBeInstanceOf(GymError);
    return error as GymError;
  }
  throw new Error("expected the read to fail");
}

const ROLLOUT: RowShape = {
  nested: { response: { nested: { usage: {} } } },
  checks: { reward: { type: "number", required: true }, agent_ref: { type: "object" }, "agent_ref.name": { type: "string" }, _ng_task_index: { type: "index" }, _ng_rollout_index: { type: "index" } },
};

describe("RowReader projection", () => {
  test("scalars typed as Python types them; strings, objects and arrays skipped unless asked for", async () => {
    const { out } = await read(`{"a":1,"b":1.0,"c":2e3,"d":1.5,"e":-0.25,"f":"long text","g":{"x":[1,{"y":"}"}]},"h":[1,2],"i":true,"j":null,"k":12345678901234567890}\n`);
    const row = out[0]!.row;
    expect(row.a).toBe(1);
    expect(row.b).toEqual(new PyFloat(1));
    expect(row.c).toEqual(new PyFloat(2000));
    expect([row.d, row.e, row.i, row.j]).toEqual([1.5, -0.25, true, null]);
    expect(row.k).toBe(12345678901234567890);
    expect([row.f, row.g, row.h]).toEqual([SKIPPED_STRING, SKIPPED_OBJECT, SKIPPED_ARRAY]);
    expect(Object.keys(row)).toEqual(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]);
  });

  test("nested shapes, whole members and kept strings", async () => {
    const text = `{"response":{"output":[{"t":"x"}],"usage":{"input_tokens":3,"total":4.0,"details":{"c":0}}},"cap":[{"a":1.0}],"name":"q\\"\\u00e9"}\n`;
    const { out } = await read(text, { nested: { response: { nested: { usage: {} } } }, whole: ["cap"], strings: true });
    const row = out[0]!.row as { response: { output: unknown; usage: Record<string, unknown> }; cap: unknown; name: string };
    expect(row.response.output).toBe(SKIPPED_ARRAY);
    expect(row.response.usage).toEqual({ input_tokens: 3, total: new PyFloat(4), details: SKIPPED_OBJECT });
    expect(row.cap).toEqual([{ a: 1 }]);
    expect(row.name).toBe('q"é');
  });

  test("keys: escapes decoded, a repeated key keeps its first place and last value, __proto__ is a plain member", async () => {
    const { out } = await read(`{"a\\u0062":1,"x":1,"x":2,"__proto__":3}\n{"ab":5,"x":6}\n`);
    expect(out[0]!.row).toEqual(JSON.parse(`{"ab":1,"x":2,"__proto__":3}`));
    expect(Object.keys(out[0]!.row)).toEqual(["ab", "x", "__proto__"]);
    expect(Object.getPrototypeOf(out[0]!.row)).toBe(Object.prototype);
    expect(out[1]!.row).toEqual({ ab: 5, x: 6 });
  });

  test("NaN, Infinity and -Infinity read as floats (Python's json.dumps writes them), refused when nonFinite is false", async () => {
    const text = `{"a":NaN,"b":Infinity,"c":-Infinity,"d":{"e":[NaN]},"w":[Infinity]}\n`;
    const row = (await read(text, { whole: ["w"] })).out[0]!.row;
    expect(row.a).toBeNaN();
    expect([row.b, row.c, row.d, row.w]).toEqual([Infinity, -Infinity, SKIPPED_OBJECT, [Infinity]]);
    expect((await failure(text, { nonFinite: false })).code).toBe("E_INPUT_JSON");
  });

  test("line numbers, byte offsets and lengths: blank lines, CRLF, a BOM, multi-byte text, lines across chunks", async () => {
    const long = "é".repeat(700_000);
    const text = `\uFEFF{"a":1}\r\n\n  \n{"b":"${long}"}\n{"c":"ü"}\r\n{"d":2}`;
    const bytes = new TextEncoder().encode(text);
    const { out } = await read(text);
    expect(out.map((r) => r.line)).toEqual([1, 4, 5, 6]);
    for (const r of out) expect(new TextDecoder().decode(bytes.subarray(r.offset, r.offset + r.length))).toBe(r.text);
    expect(out.map((r) => r.text.slice(0, 6))).toEqual(['{"a":1', '{"b":"', '{"c":"', '{"d":2']);
  });
});

describe("RowReader refuses what is not JSONL", () => {
  const bad: [string, string, RegExp][] = [
    ["missing comma in a skipped object", `{"a":1}\n{"x":{"y":1 "z":2},"a":1}\n`, /:2:\d+: invalid JSON/],
    ["trailing comma in a skipped array", `{"x":[1,2,]}\n`, /:1:\d+: invalid JSON/],
    ["bad escape in a skipped string", `{"x":"a\\qb"}\n`, /:1:\d+: invalid JSON/],
    ["leading zero", `{"x":[01]}\n`, /:1:\d+: invalid JSON/],
    ["bare minus", `{"x":-}\n`, /:1:\d+: invalid JSON/],
    ["raw tab inside a skipped string", `{"x":"a\tb"}\n`, /:1:\d+: invalid JSON/],
    ["garbage after the row", `{"x":1} 2\n`, /:1:\d+: invalid JSON/],
    ["an array row", `[1]\n`, /:1:1: expected a JSON object, found an array/],
    ["a string row", `"s"\n`, /:1:1: expected a JSON object, found string/],
  ];
  for (const [name, text, message] of bad) {
    test(name, async () => {
      const error = await failure(text);
      expect(error.message).toMatch(message);
    });
  }

  test("a cut-off last line is E_INPUT_TRUNCATED", async () => {
    const error = await failure(`{"a":1}\n{"a":2,"b":"unfin`);
    expect(error.code).toBe("E_INPUT_TRUNCATED");
    expect(error.message).toContain(":2:");
  });

  test("invalid UTF-8 is refused with its line and byte offset", async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode(`{"a":"ok"}\n{"a":"b`), 0xff, ...new TextEncoder().encode(`"}\n`)]);
    const error = await failure(bytes);
    expect(error.message).toMatch(/:2: invalid UTF-8 at byte offset 18 of the file \(byte 8 of the line: 0xff\)/);
  });

  test("tabs between tokens are whitespace", async () => {
    expect((await read(`{\t"a":\t1}\n`)).out[0]!.row).toEqual({ a: 1 });
  });
});

describe("RowReader field checks (file:line, field, expected, received)", () => {
  const ok = `{"_ng_task_index":0,"_ng_rollout_index":0,"agent_ref":{"name":"a"},"reward":1.0}\n`;
  const cases: [string, string, RegExp][] = [
    ["reward a string", `{"reward":"0.8"}`, /:2: field 'reward' must be a number \(int or float\), but it is the string "0.8"/],
    ["reward a bool", `{"reward":true}`, /field 'reward' must be a number .* but it is the bool true/],
    ["reward null", `{"reward":null}`, /field 'reward' must be a number .* but it is null/],
    ["reward missing", `{"_ng_task_index":1}`, /field 'reward' .* but it is nothing \(the field is missing\)/],
    ["agent_ref a string", `{"reward":1,"agent_ref":"a"}`, /field 'agent_ref' must be a JSON object, but it is the string "a"/],
    ["agent_ref.name not a string", `{"reward":1,"agent_ref":{"name":3}}`, /field 'agent_ref.name' must be a string, but it is the number 3/],
    ["task index a string", `{"reward":1,"_ng_task_index":"3"}`, /field '_ng_task_index' must be a non-negative integer below 2\^53 \(a Python int\), but it is the string "3"/],
    ["task index a float", `{"reward":1,"_ng_task_index":3.0}`, /field '_ng_task_index' .* but it is the float 3.0/],
    ["task index fractional", `{"reward":1,"_ng_task_index":2.5}`, /but it is the float 2.5/],
    ["task index negative", `{"reward":1,"_ng_task_index":-1}`, /but it is the negative number -1/],
    ["task index 1e20", `{"reward":1,"_ng_task_index":1e20}`, /but it is the float 1e\+20/],
    ["task index 10^20 spelled as an int", `{"reward":1,"_ng_task_index":100000000000000000000}`, /but it is the number 100000000000000000000 \(too large\)/],
    ["rollout index a bool", `{"reward":1,"_ng_rollout_index":false}`, /field '_ng_rollout_index' .* but it is the bool false/],
    ["rollout index an object", `{"reward":1,"_ng_rollout_index":{"i":1}}`, /but it is an object \{"i":1\}/],
  ];
  for (const [name, row, message] of cases) {
    test(name, async () => {
      const error = await failure(`${ok}${row}\n`, ROLLOUT);
      expect(error.code).toBe("E_INPUT_SCHEMA");
      expect(error.message).toMatch(/f\d+\.jsonl:2: /);
      expect(error.message).toMatch(message);
    });
  }

  test("a full row keeps every member of a checked object (agent_ref's own objects too)", async () => {
    const { FULL_ROW, SCORED_CHECKS } = await import("./rollout-rows.ts");
    const { out } = await read(`{"reward":1.0,"agent_ref":{"name":"a","meta":{"k":[1]}},"x":{"y":2}}\n`, { ...FULL_ROW, checks: SCORED_CHECKS });
    expect(out[0]!.row).toEqual({ reward: new PyFloat(1), agent_ref: { name: "a", meta: { k: [1] } }, x: { y: 2 } });
  });

  test("valid rows pass, NaN reward included", async () => {
    const { out } = await read(`${ok}{"reward":NaN,"_ng_task_index":9007199254740991}\n`, ROLLOUT);
    expect(out).toHaveLength(2);
  });

  test("a null where the stage allows it with a warning is counted", async () => {
    const { out, reader } = await read(`{"reward":null}\n{"reward":null}\n{"reward":0}\n`, { checks: { reward: { type: "number", null: "warn" } } });
    expect(out).toHaveLength(3);
    expect(reader.takeWarnings("f")).toEqual(["f: 2 row(s) where reward is null"]);
  });
});

/** Lines of a byte buffer the slow, obvious way: split on LF, drop one CR, drop a file-leading BOM. */
function reference(bytes: Uint8Array) {
  const out: Array<{ text: string; offset: number; length: number; line: number }> = [];
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let start = 0;
  let line = 1;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 10) continue;
    if (i === bytes.length && start === bytes.length) break;
    let s = start;
    let e = i;
    if (s === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) s = 3;
    if (e > s && bytes[e - 1] === 13) e--;
    if (e > s) out.push({ text: decoder.decode(bytes.subarray(s, e)), offset: s, length: e - s, line });
    start = i + 1;
    line++;
  }
  return out;
}

test("rows, line numbers, byte offsets and the bytes seen agree with a plain split across chunk edges, multi-byte text, CRLF, a BOM, long lines", async () => {
  const parts: string[] = ["\ufeff"];
  let seed = 3;
  const next = () => (seed = (seed * 48271) % 2147483647);
  for (let i = 0, size = 0; size < 3_500_000; i++) {
    const kind = next() % 7;
    const body = kind === 0 ? `{"u":"${"é😀ü".repeat(next() % 3000)}"}` : kind === 1 && i % 40 === 0 ? `{"x":"${"x".repeat(1_200_000)}"}` : kind === 2 ? "" : `{"i":${i},"t":"${"ab".repeat(next() % 900)}"}`;
    parts.push(body + (next() % 3 === 0 ? "\r\n" : "\n"));
    size += parts[parts.length - 1]!.length;
  }
  parts.push('{"tail":"no newline é"}');
  const bytes = new TextEncoder().encode(parts.join(""));
  const want = reference(bytes);
  // The scanner and json rows (JSON.parse per line) alike.
  for (const shape of [{ strings: true }, { json: true }]) {
    const hash = createHash("sha256");
    const reader = new RowReader(shape);
    const got: Array<{ text: string; offset: number; length: number; line: number }> = [];
    for await (const b of reader.batches(file(bytes), { onBytes: (chunk) => hash.update(chunk) })) b.rows.forEach((_, i) => got.push({ text: b.text(i), offset: b.offsets[i]!, length: b.lengths[i]!, line: b.lines[i]! }));
    expect(got.length).toBe(want.length);
    for (let i = 0; i < want.length; i++) expect(got[i]!).toEqual(want[i]!);
    expect(hash.digest("hex")).toBe(createHash("sha256").update(bytes).digest("hex"));
  }
});

test("a member parsed whole is what JSON.parse gives, whether the scanner builds it (small objects) or JSON.parse does", () => {
  const values = [
    '{"name":"bench_agent"}',
    '{"b":1,"1":2,"a":{"x":1.0,"y":-0,"z":[1.0,{"k":"v"}]},"b":3}',
    '{"__proto__":{"polluted":1},"n":12345678901234567890,"f":0.1,"e":1e400,"g":-2.5e-3,"t":true,"u":null}',
    '{"s":"esc \\" \\\\ \\/ \\n \\u00e9 \\ud83d\\ude42","ü":"naïve 中文","":""}',
    '{ "spaced" : [ 1 , 2 ] , "o" : { } , "a" : [ ] }',
    `{"long":"${"x".repeat(600)}","k":1.0}`,
    "[1.0,2]",
    '"text"',
    "1.0",
  ];
  const reader = new RowReader({ whole: ["v"] });
  for (const v of values) {
    for (let k = 0; k < 3; k++) {
      // Read three times: the second and third reuse the keys and strings the first saw.
      const row = reader.line(`{"v":${v}}`, "<test>", 1)!;
      expect(row.v).toEqual(JSON.parse(v));
      expect(Object.keys(row.v as object)).toEqual(Object.keys(JSON.parse(v)));
      expect(JSON.stringify(row.v)).toBe(JSON.stringify(JSON.parse(v)));
      expect(Object.getPrototypeOf(row.v)).toBe(Object.getPrototypeOf(JSON.parse(v)));
    }
  }
  expect(Object.is(((reader.line(`{"v":${values[1]}}`, "<test>", 1)!.v as Record<string, Record<string, unknown>>).a!).y, -0)).toBe(true);
  const nan = reader.line('{"v":{"x":NaN,"y":-Infinity}}', "<test>", 1)!;
  expect(nan.v).toEqual({ x: NaN, y: -Infinity });
});

test("json rows: what JSON.parse gives for each line, with the scanner's lines, offsets, texts and errors", async () => {
  const dir = mkdtempSync(join(tmpdir(), "gym-rows-json-"));
  const lines = ['{"a":1.0,"s":"naïve 中文 🙂","o":{"x":[1,2.5]}}', "", "   ", '{"b":NaN,"c":[Infinity,{"d":1.0}]}\r', '\ufeff{"bom":true}', '{"e":"\\u00e9\\n"}', '{"__proto__":{"p":1},"n":-0}'];
  const file = join(dir, "rows.jsonl");
  writeFileSync(file, `\ufeff${lines.join("\n")}\n${"x".repeat(0)}`);
  const json: { row: unknown; line: number; offset: number; length: number; text: string }[] = [];
  let bom = false;
  for await (const b of new RowReader({ json: true }).batches(file)) {
    bom ||= b.bom;
    b.rows.forEach((row, i) => json.push({ row, line: b.lines[i]!, offset: b.offsets[i]!, length: b.lengths[i]!, text: b.text(i) }));
  }
  const scanned: typeof json = [];
  for await (const b of new RowReader({ strings: true, wholeRest: true }).batches(file)) b.rows.forEach((row, i) => scanned.push({ row, line: b.lines[i]!, offset: b.offsets[i]!, length: b.lengths[i]!, text: b.text(i) }));
  expect(bom).toBe(true);
  expect(json.map(({ row: _, ...r }) => r)).toEqual(scanned.map(({ row: _, ...r }) => r));
  expect(json.map((r) => r.line)).toEqual([1, 4, 5, 6, 7]);
  expect(json[0]!.row).toEqual(JSON.parse(lines[0]!));
  expect(json[1]!.row).toEqual({ b: NaN, c: [Infinity, { d: 1 }] });
  expect(json[2]!.row).toEqual({ bom: true });
  expect(Object.keys(json[4]!.row as object)).toEqual(["__proto__", "n"]);
  expect(Object.is((json[4]!.row as { n: number }).n, -0)).toBe(true);
  // Errors are the scanner's, with the same file:line:column.
  const bad = join(dir, "bad.jsonl");
  for (const text of ['{"a":1}\n{"a":tru}\n', '{"a":1}\n[1]\n', '{"a":1}\n{"a":"cut']) {
    writeFileSync(bad, text);
    const errorOf = async (reader: RowReader) => {
      try {
        for await (const _ of reader.batches(bad));
      } catch (error) {
        return String(error);
      }
      return "no error";
    };
    const got = await errorOf(new RowReader({ json: true }));
    expect(got).not.toBe("no error");
    expect(got).toBe(await errorOf(new RowReader({})));
  }
});
