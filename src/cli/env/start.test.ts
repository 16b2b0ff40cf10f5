import { afterAll, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";

const MAIN = join(import.meta.dir, "../../main.ts");
const BUN = process.execPath;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

const children: ReturnType<typeof spawn>[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

test("env start --model-type mock_model serves a working rollout; env status sees it; SIGTERM shuts everything down", async () => {
  const headPort = await freePort();
  const child = spawn(BUN, [MAIN, "env", "start", "--resources-server", "example_single_tool_call", "--model-type", "mock_model", "--json", `+head_server.port=${headPort}`], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const instances = await new Promise<any[]>((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      stdout += d;
      if (stdout.includes("\n")) resolve(JSON.parse(stdout.split("\n")[0]!));
    });
    child.on("exit", (code) => reject(new Error(`env start exited ${code}: ${stderr}`)));
  });
  expect(instances.map((i) => `${i.process_name} ${i.server_type}/${i.name}`).sort()).toEqual([
    "example_single_tool_call resources_servers/example_single_tool_call",
    "example_single_tool_call_simple_agent responses_api_agents/simple_agent",
    "policy_model responses_api_models/mock_model",
  ]);
  for (const instance of instances) expect(instance.host).toBe("127.0.0.1");

  // The head server serves the config (a JSON string of YAML) and the instance list.
  const yaml = await (await fetch(`http://127.0.0.1:${headPort}/global_config_dict_yaml`)).json();
  expect(typeof yaml).toBe("string");
  expect(yaml).toContain("example_single_tool_call_simple_agent:");

  // A whole rollout through the served agent.
  const agent = instances.find((i) => i.server_type === "responses_api_agents");
  const row = { responses_create_params: { input: [{ role: "user", content: "what's it like in sf?" }], tools: [{ type: "function", name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } }, strict: true }] } };
  const result = await (await fetch(`${agent.url}/run`, { method: "POST", body: JSON.stringify(row) })).json();
  expect(result.reward).toBe(1);
  expect(result.response.output.map((i: any) => i.type)).toEqual(["function_call", "function_call_output", "message"]);

  const status = spawn(BUN, [MAIN, "env", "status", "--json", `+head_server.port=${headPort}`], { stdio: ["ignore", "pipe", "pipe"] });
  let statusOut = "";
  status.stdout!.on("data", (d) => (statusOut += d));
  expect(await new Promise((resolve) => status.on("exit", resolve))).toBe(0);
  const servers = JSON.parse(statusOut);
  expect(servers.map((s: any) => s.status)).toEqual(["success", "success", "success"]);

  child.kill("SIGTERM");
  const code = await new Promise((resolve) => child.on("exit", resolve));
  expect(code).toBe(0);
  expect(stderr).toContain("NeMo Gym finished!");
  // Nothing listens any more.
  for (const url of [...instances.map((i) => i.url), `http://127.0.0.1:${headPort}`]) {
    expect(await fetch(url).then(() => "open", () => "closed")).toBe("closed");
  }
}, 30_000);
