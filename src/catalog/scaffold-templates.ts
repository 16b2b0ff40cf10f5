/** The files `gym env init` writes: a TypeScript resources server, and manifest-backed environment/benchmark skeletons. */

const pascal = (name: string) => name.replace(/(^|[_.-])([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());

/** `resources_servers/NAME/…` in gym's TypeScript layout. `sdk` is the import specifier of server-sdk.ts. */
export function resourcesServerFiles(name: string, sdk: string, forWorkload = false): Record<string, string> {
  const dir = `resources_servers/${name}`;
  const files: Record<string, string> = {
    [`${dir}/index.ts`]: `/** ${name}: a resources server scaffolded by \`gym env init\`. Replace the scoring in verify.handler with your own. */
import { defineResourcesServer, py } from "${sdk}";

/** The text of the assistant messages of a Responses API response. */
function assistantText(response: unknown): string {
  const output = (response as { output?: { type?: string; content?: { type?: string; text?: string }[] }[] })?.output ?? [];
  return output
    .filter((item) => item.type === "message")
    .flatMap((item) => item.content ?? [])
    .filter((part) => part.type === "output_text")
    .map((part) => part.text ?? "")
    .join("\\n");
}

export default defineResourcesServer({
  name: "${name}",
  className: "${pascal(name)}ResourcesServer",
  verify: {
    // Keep these fields in step with task_data.ts (which \`gym env schema\` prints).
    request: { fields: { expected_answer: py.str() } },
    response: ["expected_answer"],
    handler(body) {
      const answer = assistantText(body.response).trim();
      return { reward: answer === body.expected_answer ? 1 : 0, expected_answer: body.expected_answer };
    },
  },
});
`,
    [`${dir}/task_data.ts`]: `/** The fields each ${name} task row carries besides responses_create_params (printed by \`gym env schema\`). */
import { v } from "${sdk}";

export const taskData = v.object({
  expected_answer: v.pipe(v.string(), v.description("The exact text the model must answer")),
});
`,
    [`${dir}/configs/${name}.yaml`]: `${name}_resources_server:
  resources_servers:
    ${name}:
      entrypoint: index.ts
      domain: other
      description: TODO describe what ${name} verifies
${forWorkload ? "" : `${name}_simple_agent:
  responses_api_agents:
    simple_agent:
      entrypoint: app.py
      resources_server:
        type: resources_servers
        name: ${name}_resources_server
      model_server:
        type: responses_api_models
        name: policy_model
      datasets:
      - name: train
        type: train
        jsonl_fpath: resources_servers/${name}/data/train.jsonl
        license: TBD
      - name: validation
        type: validation
        jsonl_fpath: resources_servers/${name}/data/validation.jsonl
        license: TBD
      - name: example
        type: example
        jsonl_fpath: resources_servers/${name}/data/example.jsonl
`}`,
    [`${dir}/data/example.jsonl`]: [
      { responses_create_params: { input: [{ role: "user", content: "What is the capital of France? Answer with one word." }] }, expected_answer: "Paris" },
      { responses_create_params: { input: [{ role: "user", content: "What is 2 + 3? Answer with the number only." }] }, expected_answer: "5" },
    ]
      .map((row) => JSON.stringify(row))
      .join("\n") + "\n",
    [`${dir}/${name}.test.ts`]: `import { expect, test } from "bun:test";
import create${pascal(name)} from "./index.ts";

// A complete Responses API response, as a model server returns it.
const reply = (text: string) => ({
  id: "resp_1",
  created_at: 1700000000,
  model: "test-model",
  object: "response",
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
  output: [{ id: "msg_1", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }],
});

test("${name}: an exact answer scores 1, anything else 0", async () => {
  const app = create${pascal(name)}();
  const verify = (text: string) =>
    app.request("/verify", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ responses_create_params: { input: "q" }, response: reply(text), expected_answer: "Paris" }),
    });
  expect(((await (await verify("Paris")).json()) as { reward: number }).reward).toBe(1);
  expect(((await (await verify("Lyon")).json()) as { reward: number }).reward).toBe(0);
});
`,
    [`${dir}/README.md`]: `# ${name}\n\nA resources server scaffolded by \`gym env init --resources-server ${name}\`.\n\n- \`index.ts\`: the server; \`verify\` turns a rollout into a reward.\n- \`task_data.ts\`: the fields of a task row (\`gym env schema --resources-server ${name}\`).\n- \`configs/${name}.yaml\`: the server and a simple_agent with train, validation and example slots.\n- \`data/example.jsonl\`: example tasks (\`gym dataset collate --resources-server ${name} --mode example_validation --output-dir out\`).\n\nRun its test with \`gym env test --resources-server ${name} --search-dir .\`; list it with \`gym list resources-servers --search-dir .\`.\n`,
    [`${dir}/tests/verifier_cases.jsonl`]: verifierCases(),
  };
  return files;
}

/** The verifier fixture \`gym env test NAME\` runs: a full-reward, a zero-reward and a malformed case. */
function verifierCases(): string {
  const request = (text: string, extra: Record<string, unknown>) => ({
    responses_create_params: { input: [{ role: "user", content: "What is the capital of France? Answer with one word." }] },
    response: { id: "fixture_response", created_at: 0, model: "fixture", object: "response", parallel_tool_calls: true, tool_choice: "auto", tools: [], output: [{ id: "fixture_message", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }] },
    ...extra,
  });
  return [
    { expected_reward: 1, kind: "full_reward", name: "exact_answer", request: request("Paris", { expected_answer: "Paris" }) },
    { expected_reward: 0, kind: "zero_reward", name: "wrong_answer", request: request("Lyon", { expected_answer: "Paris" }) },
    { expected_error: "expected_answer", kind: "malformed", name: "missing_expected_answer", request: request("Paris", {}) },
  ].map((c) => `${JSON.stringify(c)}\n`).join("");
}

export interface WorkloadOptions {
  kind: "environment" | "benchmark";
  name: string;
  profile: string;
  /** Reuse an existing verifier instead of scaffolding resources_servers/NAME. */
  verifier: string;
  /** The verifier's instance name in its config (`<name>_resources_server` for a scaffolded one). */
  verifierInstance: string;
  /**
   * A reused verifier's instances in its config: they are inherited (`_inherit_from`, which consumes the
   * generic instances, as NeMo Gym's benchmarks do), so the workload has its own isolated copies and its
   * agent is the only one with datasets.
   */
  inherit?: { resourcesServer: string; agent?: string };
  reward: { range: [number, number]; higher_is_better: boolean };
}

/** `environments|benchmarks/NAME/…`: manifest, config, README and data (benchmarks also a prompt and a prepare step). */
export function workloadFiles(o: WorkloadOptions): Record<string, string> {
  const tree = o.kind === "environment" ? "environments" : "benchmarks";
  const dir = `${tree}/${o.name}`;
  const benchmark = o.kind === "benchmark";
  const dataset = benchmark
    ? `  - name: ${o.name}\n    type: benchmark\n    jsonl_fpath: ${dir}/data/${o.name}_benchmark.jsonl\n    prompt_config: ${dir}/prompt.yaml\n    prepare_script: ${dir}/prepare.ts\n`
    : `  - name: example\n    type: example\n    jsonl_fpath: ${dir}/data/example.jsonl\n`;
  const files: Record<string, string> = {
    [`${dir}/manifest.yaml`]: `name: ${o.name}
version: 0.1.0
kind: ${o.kind}
integration_profile: ${o.profile}
domain: other
description: TODO describe ${o.name}
modality: text
authors:
  - TODO your name
licensing: unknown
determinism: unknown
reward:
  range: [${o.reward.range[0]}, ${o.reward.range[1]}]
  higher_is_better: ${o.reward.higher_is_better}
resources_server: ${o.verifier}
agent_server: simple_agent
model_server: policy_model
datasets:
${dataset}${benchmark ? "canonical_split: TODO\nstandard_prompt_config: " + `${dir}/prompt.yaml\n` : ""}`,
    [`${dir}/config.yaml`]: o.inherit ? inheritingConfig(o, dataset) : `config_paths:
  - resources_servers/${o.verifier}/configs/${o.verifier}.yaml

${o.name}_agent:
  responses_api_agents:
    simple_agent:
      entrypoint: app.py
      resources_server:
        type: resources_servers
        name: ${o.verifierInstance}
      model_server:
        type: responses_api_models
        name: policy_model
      datasets:
${dataset.replace(/^/gm, "      ").trimEnd()}
`,
    [`${dir}/README.md`]: `# ${o.name}\n\nA manifest-backed ${o.kind} scaffolded by \`gym env init --${o.kind} ${o.name}\`. Fill in the TODOs in manifest.yaml, then \`gym list ${tree} ${o.name} --search-dir .\`.\n`,
    [`${dir}/data/example.jsonl`]: `${JSON.stringify({ task_id: `${o.name}-1`, question: "What is the capital of France? Answer with one word.", expected_answer: "Paris", responses_create_params: { input: [{ role: "user", content: "What is the capital of France? Answer with one word." }] } })}\n`,
  };
  if (benchmark) {
    files[`${dir}/data/source.jsonl`] = `${JSON.stringify({ task_id: `${o.name}-1`, question: "What is 2 + 3? Answer with the number only.", expected_answer: "5" })}\n`;
    files[`${dir}/prompt.yaml`] = `user: "{question}"\n`;
    files[`${dir}/prepare.ts`] = `/** Prepares ${o.name}: copies data/source.jsonl to the benchmark's jsonl_fpath (replace with your own download or generator). */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export async function prepare(context: { outputPath: string; writeRows(path: string, rows: Iterable<Record<string, unknown>>): Promise<void> }): Promise<string> {
  const source = readFileSync(join(import.meta.dir, "data", "source.jsonl"), "utf8");
  const rows = source.split("\\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
  await context.writeRows(context.outputPath, rows);
  return context.outputPath;
}
`;
  }
  return files;
}

/** A workload config over a reused verifier: isolated copies of its instances, the agent's datasets replaced. */
function inheritingConfig(o: WorkloadOptions, dataset: string): string {
  const { resourcesServer, agent } = o.inherit!;
  const datasets = dataset.replace(/^/gm, "      ").trimEnd();
  const agentBlock = agent
    ? `${o.name}_agent:
  _inherit_from: ${agent}
  responses_api_agents:
    simple_agent:
      resources_server:
        name: ${o.name}_resources_server
      datasets:
${datasets}
`
    : `${o.name}_agent:
  responses_api_agents:
    simple_agent:
      entrypoint: app.py
      resources_server:
        type: resources_servers
        name: ${o.name}_resources_server
      model_server:
        type: responses_api_models
        name: policy_model
      datasets:
${datasets}
`;
  return `config_paths:
  - resources_servers/${o.verifier}/configs/${o.verifier}.yaml

# Isolated copies of ${o.verifier}'s instances: _inherit_from consumes the generic ones, so only these are started.
${o.name}_resources_server:
  _inherit_from: ${resourcesServer}

${agentBlock}`;
}
