import { describe, expect, test } from "bun:test";
import { checkDataset, normalizeDataset } from "./datasets.ts";
import { checkServerInstance, findAlmostServers, findServerInstances, looksLikeServer } from "./servers.ts";

describe("server instance shape (spec §1.2)", () => {
  test("one implementation with an entrypoint; resources servers need a valid domain", () => {
    expect(checkServerInstance("m", { responses_api_models: { openai_model: { entrypoint: "app.py" } } }).instance).toMatchObject({ name: "m", serverType: "responses_api_models", implementation: "openai_model" });
    expect(checkServerInstance("r", { resources_servers: { mcqa: { entrypoint: "app.py" } } }).issues).toEqual([{ loc: [], msg: "Value error, A domain is required for resources servers." }]);
    expect(checkServerInstance("r", { resources_servers: { mcqa: { entrypoint: "app.py", domain: "cooking" } } }).issues[0]!.msg).toMatch(/^Must be one of: 'math', 'coding'/);
    expect(checkServerInstance("r", { resources_servers: { mcqa: { domain: "math" } } }).issues).toEqual([{ loc: ["resources_servers", "mcqa", "entrypoint"], msg: "Field required" }]);
  });

  test("zero or two implementation entries is not a server; reserved keys and scalars never are", () => {
    expect(checkServerInstance("x", { resources_servers: {} }).instance).toBeUndefined();
    const two = { responses_api_agents: { a: { entrypoint: "app.py" }, b: { entrypoint: "app.py" } } };
    expect(checkServerInstance("x", two).issues[0]!.msg).toContain("at most 1 item");
    expect(looksLikeServer(two)).toBe(true);
    expect(checkServerInstance("head_server", { responses_api_models: { m: { entrypoint: "app.py" } } }).instance).toBeUndefined();
    expect(findServerInstances({ policy_base_url: "x", n: 1 })).toEqual([]);
  });

  test("extra keys next to the server type are allowed; the first type that validates wins (models, resources, agents)", () => {
    const both = { note: "extra", responses_api_agents: { a: { entrypoint: "app.py" } }, responses_api_models: { m: { entrypoint: "app.py" } } };
    expect(checkServerInstance("x", both).instance?.serverType).toBe("responses_api_models");
  });

  test("almost-servers: look like servers (an entrypoint) but fail; a block without entrypoint is just data", () => {
    const tree = {
      bad: { responses_api_agents: { simple_agent: { entrypoint: "app.py", port: "eighty" } } },
      data: { resources_servers: { x: { domain: "math" } } },
    };
    expect(findAlmostServers(tree)).toEqual([{ name: "bad", issues: [{ loc: ["responses_api_agents", "simple_agent", "port"], msg: "Input should be a valid integer" }] }]);
  });
});

describe("datasets (spec §1.4)", () => {
  const loc = ["datasets", 0];
  test("train and validation need a known license; example does not", () => {
    expect(checkDataset({ name: "t", type: "train", jsonl_fpath: "t.jsonl" }, loc)).toEqual([{ loc, msg: "Value error, A license is required for t" }]);
    expect(checkDataset({ name: "t", type: "validation", jsonl_fpath: "t.jsonl", license: "MIT" }, loc)).toEqual([]);
    expect(checkDataset({ name: "e", type: "example", jsonl_fpath: "e.jsonl" }, loc)).toEqual([]);
    expect(checkDataset({ name: "t", type: "train", jsonl_fpath: "t.jsonl", license: "WTFPL" }, loc)[0]!.loc).toEqual([...loc, "license"]);
  });

  test("type, num_repeats, required fields", () => {
    expect(checkDataset({ name: "x", type: "test", jsonl_fpath: "x" }, loc)[0]!.msg).toContain("'train', 'validation', 'example', 'benchmark'");
    expect(checkDataset({ name: "x", type: "example", jsonl_fpath: "x", num_repeats: 0 }, loc)).toEqual([{ loc: [...loc, "num_repeats"], msg: "Input should be greater than or equal to 1" }]);
    expect(checkDataset({ type: "example" }, loc).map((i) => i.loc.at(-1))).toEqual(["name", "jsonl_fpath"]);
  });

  test("benchmark datasets need prepare_script; license is ignored", () => {
    expect(checkDataset({ name: "b", type: "benchmark", jsonl_fpath: "b.jsonl", license: "anything" }, loc)).toEqual([{ loc: [...loc, "prepare_script"], msg: "Field required" }]);
  });

  test("source: backends checked; cannot be combined with legacy identifiers; legacy pairs allowed", () => {
    const base = { name: "v", type: "validation", jsonl_fpath: "v.jsonl", license: "MIT" };
    expect(checkDataset({ ...base, source: { type: "huggingface", repo_id: "r" } }, loc)).toEqual([]);
    expect(checkDataset({ ...base, source: { type: "gitlab", dataset_name: "d" } }, loc).map((i) => i.loc.at(-1))).toEqual(["version", "artifact_fpath"]);
    expect(checkDataset({ ...base, source: { type: "s3" } }, loc)[0]!.msg).toContain("'gitlab', 'huggingface'");
    expect(checkDataset({ ...base, source: { type: "huggingface", repo_id: "r" }, gitlab_identifier: { dataset_name: "d", version: "1", artifact_fpath: "a" } }, loc)[0]!.msg).toContain("Specify a dataset source once for 'v'");
    expect(checkDataset({ ...base, gitlab_identifier: { dataset_name: "d", version: "1", artifact_fpath: "a" }, huggingface_identifier: { repo_id: "r" } }, loc)).toEqual([]);
  });

  test("normalizeDataset mirrors source and a lone legacy identifier", () => {
    expect(normalizeDataset({ name: "v", source: { type: "huggingface", repo_id: "r" } })).toEqual({ name: "v", source: { type: "huggingface", repo_id: "r" }, num_repeats: 1, huggingface_identifier: { artifact_fpath: null, repo_id: "r" } });
    expect(normalizeDataset({ name: "t", gitlab_identifier: { dataset_name: "d", version: "1", artifact_fpath: "a" } }).source).toEqual({ type: "gitlab", dataset_name: "d", version: "1", artifact_fpath: "a" });
  });
});
