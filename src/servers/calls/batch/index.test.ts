import { afterEach, expect, test } from "bun:test";
import { startBatchTransport, stopBatchTransport } from "./index.ts";
import { splitModelUrl } from "./transport.ts";

afterEach(stopBatchTransport);

test("--batch refuses an agent that makes several model calls per rollout, naming it and what works", () => {
  expect(() => startBatchTransport({ batch_api: true }, "/tmp/x/rollouts.jsonl", [{ name: "swe", implementation: "gymnasium_agent" }], false)).toThrow(/--batch does not apply to agent 'swe' \(gymnasium_agent\)/);
  expect(startBatchTransport({ batch_api: true }, "/tmp/x/rollouts.jsonl", [{ name: "a", implementation: "simple_agent" }], false)?.journalPath).toBe("/tmp/x/rollouts_batches.jsonl");
  expect(startBatchTransport({}, "/tmp/x/rollouts.jsonl", [], false)).toBeUndefined();
  expect(() => startBatchTransport({ batch_api: true, batch_send_delay_s: "soon" }, "/tmp/x/r.jsonl", [], false)).toThrow(/batch_send_delay_s must be a number > 0/);
});

test("a model URL splits into the API base and the batch endpoint", () => {
  expect(splitModelUrl("http://h:1/v1/responses")).toEqual({ base: "http://h:1/v1", endpoint: "/v1/responses" });
  expect(splitModelUrl("https://x/openai/v1/chat/completions")).toEqual({ base: "https://x/openai/v1", endpoint: "/v1/chat/completions" });
  expect(() => splitModelUrl("http://h/v1/generate")).toThrow();
});
