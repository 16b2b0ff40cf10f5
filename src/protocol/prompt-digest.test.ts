import { expect, test } from "bun:test";
import { dumpInputItem } from "./responses-dump.ts";
import { promptDigest } from "./prompt-digest.ts";

test("a prompt and the agent's dump of it have one digest; another text, role or item kind has another", () => {
  const raw = [{ role: "user", content: "What is 2+2?" }, { role: "assistant", content: [{ type: "output_text", text: "4" }] }];
  const dumped = raw.map((item) => dumpInputItem(item as never));
  expect(promptDigest(dumped)).toBe(promptDigest(raw)!);
  expect(promptDigest([{ role: "user", content: "What is 2+3?" }, raw[1]])).not.toBe(promptDigest(raw)!);
  expect(promptDigest([{ role: "system", content: "What is 2+2?" }, raw[1]])).not.toBe(promptDigest(raw)!);
  expect(promptDigest("What is 2+2?")).not.toBe(promptDigest([{ role: "user", content: "What is 2+2?" }])!);
  expect(promptDigest(undefined)).toBeUndefined();
});
