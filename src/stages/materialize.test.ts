import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GymError } from "../errors.ts";
import { materialize, type MaterializeOptions } from "./materialize.ts";

function input(lines: string[]): string {
  const path = join(mkdtempSync(join(tmpdir(), "gym-mat-")), "in.jsonl");
  writeFileSync(path, lines.map((l) => `${l}\n`).join(""));
  return path;
}

const base: MaterializeOptions = { knownAgents: ["a"] };
const ids = (rows: Record<string, unknown>[]) => rows.map((r) => `${r._ng_task_index}-${r._ng_rollout_index}`);

describe("materialize", () => {
  test("byte-identical lines are one task; their repeats continue one counter", async () => {
    const rows = await materialize(input(['{"q":1}', '{"q":2}', '{"q":1}', '{"q": 1}']), { ...base, numRepeats: 2 });
    expect(ids(rows)).toEqual(["0-0", "0-1", "1-0", "1-1", "0-2", "0-3", "2-0", "2-1"]);
    expect(rows[0]).toEqual({ q: 1, agent_ref: { name: "a" }, _ng_task_index: 0, _ng_rollout_index: 0 });
  });

  test("--limit counts input lines before dedupe and repeats; blank lines are not lines", async () => {
    const rows = await materialize(input(['{"q":1}', "", '{"q":1}', '{"q":3}']), { ...base, limit: 2, numRepeats: 1 });
    expect(ids(rows)).toEqual(["0-0", "0-1"]);
  });

  test("a pre-stamped _ng_task_index is kept", async () => {
    const rows = await materialize(input(['{"q":1,"_ng_task_index":7}']), base);
    expect(ids(rows)).toEqual(["7-0"]);
  });

  test("responses_create_params overrides merge shallowly (a nested object is replaced whole)", async () => {
    const rows = await materialize(input(['{"responses_create_params":{"input":"hi","reasoning":{"effort":"high","summary":"auto"}}}']), {
      ...base,
      responsesCreateParams: { temperature: 0.2, reasoning: { effort: "low" } },
    });
    expect(rows[0]!.responses_create_params).toEqual({ input: "hi", reasoning: { effort: "low" }, temperature: 0.2 });
  });

  test("num_repeats per agent, with _default, and a warning for a key no row uses", async () => {
    const warnings: string[] = [];
    const rows = await materialize(input(['{"q":1,"agent_ref":{"name":"a"}}', '{"q":2,"agent_ref":{"name":"b"}}']), {
      knownAgents: ["a", "b"],
      numRepeats: { a: 3, _default: 1, typo_agent: 2 },
      warn: (m) => warnings.push(m),
    });
    expect(ids(rows)).toEqual(["0-0", "0-1", "0-2", "1-0"]);
    expect(warnings[0]).toContain("'typo_agent'");
  });

  test("seeds go into metadata.extra_body as JSON", async () => {
    const rows = await materialize(input(['{"responses_create_params":{"input":"x","metadata":{"extra_body":"{\\"k\\":1}"}}}']), { ...base, numRepeats: 2, addSeed: true });
    expect((rows[1]!.responses_create_params as { metadata: { extra_body: string } }).metadata.extra_body).toBe('{"k":1,"seed":1}');
  });

  test("routing errors are reported all at once with file:line", async () => {
    const path = input(['{"q":1,"agent_ref":{"name":"nope"}}', '{"q":2,"agent_ref":{"name":"simple_agnt"}}']);
    const error = (await materialize(path, { knownAgents: ["simple_agent", "other"] }).catch((e) => e)) as GymError;
    expect(error.code).toBe("E_CONFIG");
    expect(error.message).toContain("2 row(s)");
    expect(error.message).toContain(`${path}:1: agent 'nope'`);
    expect(error.message).toContain("did you mean 'simple_agent'?");
  });

  test("--agent routes every row; without it a single-agent config is the default", async () => {
    const rows = await materialize(input(['{"q":1,"agent_ref":{"name":"b"}}']), { knownAgents: ["a", "b"], agentName: "a" });
    expect(rows[0]!.agent_ref).toEqual({ name: "a" });
  });

  test("a prompt config refuses rows that already have an input, naming every line", async () => {
    const promptConfig = { user: [{ text: "Q: " }, { field: "q" }] } as never;
    const error = (await materialize(input(['{"q":1,"responses_create_params":{"input":"x"}}', '{"q":2}', '{"q":3,"responses_create_params":{"input":[{"role":"user","content":"y"}]}}']), { ...base, promptConfig }).catch((e) => e)) as GymError;
    expect(error.message).toContain("2 row(s) already have responses_create_params.input");
    expect(error.message).toContain("lines 1, 3");
  });

  test("a bad line stops with file:line:column", async () => {
    const path = input(['{"q":1}', '{"q":2,}']);
    const error = (await materialize(path, base).catch((e) => e)) as GymError;
    expect(error.message).toContain(`${path}:2:8`);
  });
});

describe("materialize after an --agent-type swap", () => {
  test("rows whose agent_ref.name is a replaced instance go to the composed one; agent_map keys may use either name", async () => {
    const rows = await materialize(input(['{"q":1,"agent_ref":{"name":"env_simple_agent","extra":1}}', '{"q":2,"agent_ref":{"name":"other"}}', '{"q":3}']), {
      knownAgents: ["env_non_executing_simple_agent", "other"],
      renamedAgents: { env_simple_agent: "env_non_executing_simple_agent" },
      agentMap: { _default: "other" },
    });
    expect(rows.map((r) => r.agent_ref)).toEqual([{ name: "other", extra: 1 }, { name: "other" }, { name: "other" }]);
    const plain = await materialize(input(['{"q":1,"agent_ref":{"name":"env_simple_agent","extra":1}}', '{"q":2,"agent_ref":{"name":"other"}}']), {
      knownAgents: ["env_non_executing_simple_agent", "other"],
      renamedAgents: { env_simple_agent: "env_non_executing_simple_agent" },
    });
    expect(plain.map((r) => r.agent_ref)).toEqual([{ name: "env_non_executing_simple_agent", extra: 1 }, { name: "other" }]);
    const mapped = await materialize(input(['{"agent_ref":{"name":"env_simple_agent"}}']), {
      knownAgents: ["env_non_executing_simple_agent", "other"],
      renamedAgents: { env_simple_agent: "env_non_executing_simple_agent" },
      agentMap: { env_simple_agent: "other" },
    });
    expect(mapped[0]!.agent_ref).toEqual({ name: "other" });
  });

  test("without the rename the old name is not a configured agent", async () => {
    const error = await materialize(input(['{"agent_ref":{"name":"env_simple_agent"}}']), { knownAgents: ["env_non_executing_simple_agent", "other"] }).catch((e) => e as GymError);
    expect((error as GymError).message).toContain("agent 'env_simple_agent' is not a configured agent instance");
  });
});

describe("fan_out", () => {
  test("one copy set per listed agent, adjacent, sharing the task's rollout counter", async () => {
    const rows = await materialize(input(['{"q":1,"agent_ref":{"name":"both"}}', '{"q":2,"agent_ref":{"name":"a"}}']), {
      knownAgents: ["a", "b", "both"],
      fanOut: { both: ["a", "b"] },
      numRepeats: 2,
    });
    expect(rows.map((r) => `${r._ng_task_index}-${r._ng_rollout_index}:${(r.agent_ref as { name: string }).name}`)).toEqual(["0-0:a", "0-1:a", "0-2:b", "0-3:b", "1-0:a", "1-1:a"]);
  });

  test("an empty list, a duplicate and an unknown agent are reported together", async () => {
    const path = input(['{"q":1,"agent_ref":{"name":"x"}}', '{"q":2,"agent_ref":{"name":"y"}}', '{"q":3,"agent_ref":{"name":"z"}}']);
    const error = (await materialize(path, { knownAgents: ["a", "b"], fanOut: { x: [], y: ["a", "a"], z: ["a", "bb"] } }).catch((e) => e)) as GymError;
    expect(error.message).toContain("3 row(s)");
    expect(error.message).toContain("fan_out for 'x' is empty");
    expect(error.message).toContain("fan_out for 'y' names 'a' twice");
    expect(error.message).toContain("names 'bb', which is not a configured agent instance (did you mean 'b'?)");
  });
});
