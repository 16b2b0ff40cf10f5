/** For the SQL verifiers' tests: a value of their `_fixtures/vectors.json` (`{int}`, `{float}`, `{bytes}` or a plain
 * str/null, as the Python generator writes it) decoded as the runner returns it. */
import type { SqlRow, SqlValue } from "./execute.ts";

export function decodeVectorValue(v: any): SqlValue {
  if (v === null || typeof v === "string") return v;
  if ("int" in v) return BigInt(v.int);
  if ("float" in v) return typeof v.float === "number" ? v.float : Number(v.float.replace("inf", "Infinity"));
  return Uint8Array.from(Buffer.from(v.bytes, "hex"));
}

export const vectorRows = (r: any[][]): SqlRow[] => r.map((row) => row.map(decodeVectorValue));

/** A model response whose one message says `text`, as the SQL verifiers' tests send it. */
export const answer = (text: string) => ({
  id: "resp_1",
  created_at: 1,
  model: "m",
  object: "response",
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
  output: [{ id: "msg_1", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }],
});
