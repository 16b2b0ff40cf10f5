import { expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { entryText, loadInputs, verifyPayload } from "./inputs.ts";

const lines = ['{"_ng_task_index":0,"_ng_rollout_index":0,"x":1.0,"p":"naïve \\u00e9"}', '{"_ng_task_index":0,"_ng_rollout_index":1,"response":{"a":1},"agent_ref":{"name":"a"}}\r', ' {"_ng_task_index":1,"_ng_rollout_index":0} '];

test("the index reads each row's exact text back from the file", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "gym-inputs-")), "inputs.jsonl");
  writeFileSync(file, `\ufeff${lines.join("\n")}\n`);
  const index = await loadInputs(file);
  expect([...index.entries.keys()]).toEqual([0, 1, 1048576]);
  expect(entryText(index.entries.get(0)!)).toBe(lines[0]!);
  expect(entryText(index.entries.get(1)!)).toBe(lines[1]!.slice(0, -1));
  expect(entryText(index.entries.get(1048576)!)).toBe(lines[2]!);
  expect(index.entries.get(1)!.stamps).toEqual({ _ng_task_index: 0, _ng_rollout_index: 1, agent_ref: { name: "a" } });
  expect(verifyPayload(index.entries.get(0)!, { r: 2 })).toBe('{"_ng_task_index":0,"_ng_rollout_index":0,"x":1.0,"p":"naïve \\u00e9","response":{"r":2}}');
});

test("an inputs file changed after it was indexed is refused, not read at shifted offsets", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "gym-inputs-")), "inputs.jsonl");
  writeFileSync(file, `${lines.join("\n")}\n`);
  const index = await loadInputs(file);
  appendFileSync(file, `${lines[0]}\n`);
  expect(() => entryText(index.entries.get(0)!)).toThrow(/changed while reverify ran/);
});
