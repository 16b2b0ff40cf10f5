// Hostile C++ programs through the compiled binary: `gym eval reverify --resources-server competitive_coding_challenges`
// re-scores rollouts whose solution attacks the machine, each against a stand-in problem whose expected output is what
// the attack prints when it works — so a 0 proves it failed. Afterwards no process of the run is left, nothing
// outside changed, no connection reached the host, and a correct program still scores 1.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectSandbox } from "../../../sandbox/index.ts";
import { ensureBinary, gym } from "../../../testing/binary.ts";
import { toyMetadataLine } from "./_fixtures/toy-problem.ts";

const hasBwrap = (await detectSandbox()).kind === "bwrap";
if (!hasBwrap) console.warn("skip: competitive_coding_challenges hostile-program tests because bubblewrap is not available (apt-get install bubblewrap)");
beforeAll(ensureBinary, 120_000);

const dir = mkdtempSync(join(tmpdir(), "gym-ccc-hostile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tag = `ccc-hostile-${process.pid}-${Date.now()}`;
const secret = join(dir, "secret.txt");
writeFileSync(secret, "TOP-SECRET\n");
const quotedSecret = join(dir, "secret.inc");
writeFileSync(quotedSecret, '"TOP-SECRET"\n');
const outside = join(tmpdir(), `${tag}-written`);

const HEAD = "#include <bits/stdc++.h>\n#include <signal.h>\n#include <unistd.h>\n#include <sys/socket.h>\n#include <netinet/in.h>\n#include <arpa/inet.h>\nusing namespace std;\n";

function programs(port: number): Record<string, { code: string; expected: string }> {
  return {
    "infinite loop ignoring SIGTERM": { code: "int main(){ signal(SIGTERM, SIG_IGN); for(;;); }", expected: "done" },
    "fork bomb": { code: "int main(){ for(;;) fork(); }", expected: "done" },
    "50 GB allocation": { code: 'int main(){ vector<char> v(50ull << 30, 1); cout << "done" << endl; }', expected: "done" },
    "10 GB of output": { code: 'int main(){ string s(1 << 20, \'x\'); for (int i = 0; i < 10240; i++) { fwrite(s.data(), 1, s.size(), stdout); fwrite(s.data(), 1, s.size(), stderr); } }', expected: "nothing" },
    "socket to 127.0.0.1": {
      code: `int main(){ int s = socket(AF_INET, SOCK_STREAM, 0); sockaddr_in a{}; a.sin_family = AF_INET; a.sin_port = htons(${port}); inet_pton(AF_INET, "127.0.0.1", &a.sin_addr); if (connect(s, (sockaddr*)&a, sizeof a) == 0) { char b[64] = {0}; read(s, b, 63); cout << b; } }`,
      expected: "HELLO-FROM-HOST",
    },
    "reading the run's files": { code: `int main(){ ifstream f(${JSON.stringify(secret)}); string l; getline(f, l); cout << l << endl; }`, expected: "TOP-SECRET" },
    "including a host file at compile time": { code: `const char* s =\n#include ${JSON.stringify(quotedSecret)}\n;\nint main(){ cout << s << endl; }`, expected: "TOP-SECRET" },
    "writing outside its temp dir": {
      // The host's /tmp path lands in the sandbox's private /tmp (allowed, and never seen outside); the others must fail.
      code: `int main(){ if (FILE* t = fopen(${JSON.stringify(outside)}, "w")) { fputs("x", t); fclose(t); } for (const char* p : {${JSON.stringify(join(dir, "planted"))}, "/etc/planted", "/usr/planted", "/work/planted", "/sandbox/planted"}) { FILE* f = fopen(p, "w"); if (f) { fputs("x", f); fclose(f); cout << "wrote" << endl; return 0; } } }`,
      expected: "wrote",
    },
    "killing the test runner": { code: `int main(){ if (kill(${process.pid}, 9) == 0) cout << "killed" << endl; }`, expected: "killed" },
    "a correct program": { code: 'int main(){ cout << "done" << endl; }', expected: "done" },
  };
}

function taggedProcesses(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").includes(`GYM_SANDBOX_TAG=${tag}`)) found.push(Number(entry));
    } catch {}
  }
  return found;
}

describe("hostile C++ programs through gym eval reverify (competitive_coding_challenges in bubblewrap)", () => {
  (hasBwrap ? test : test.skip)("each scores 0; no process survives; nothing outside changes; a correct program still scores 1", async () => {
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.end("HELLO-FROM-HOST\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const all = programs((server.address() as { port: number }).port);
    const names = Object.keys(all);
    const metadata: string[] = [];
    const inputs: string[] = [];
    const rollouts: string[] = [];
    names.forEach((name, task) => {
      const problemId = `p${task}`;
      metadata.push(toyMetadataLine("hostile", problemId, { all: { score: 100, tests: { "secret-01": { input: "", output: `${all[name]!.expected}\n` } } } }));
      const stamps = { _ng_task_index: task, _ng_rollout_index: 0, agent_ref: { name: "competitive_coding_challenges_simple_agent" } };
      const params = { input: [{ role: "user", content: name }] };
      const row = { competition_id: "hostile", problem_id: problemId, subtask: "all", name };
      inputs.push(JSON.stringify({ responses_create_params: params, ...row, ...stamps }));
      const text = "```cpp\n" + HEAD + all[name]!.code + "\n```";
      const response = {
        id: `resp_${task}`, created_at: 1, model: "m", object: "response", parallel_tool_calls: true, tool_choice: "auto", tools: [],
        output: [{ id: `msg_${task}`, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }],
      };
      rollouts.push(JSON.stringify({ responses_create_params: params, response, reward: 0, ...stamps }));
    });
    writeFileSync(join(dir, "metadata.jsonl"), metadata.join("\n") + "\n");
    writeFileSync(join(dir, "inputs.jsonl"), inputs.join("\n") + "\n");
    writeFileSync(join(dir, "rollouts.jsonl"), rollouts.join("\n") + "\n");
    const output = join(dir, "reverified.jsonl");
    const key = "++competitive_coding_challenges_resources_server.resources_servers.competitive_coding_challenges";
    const result = await gym(
      ["eval", "reverify", "--resources-server", "competitive_coding_challenges", "--inputs", join(dir, "inputs.jsonl"), "--rollouts", join(dir, "rollouts.jsonl"), "-o", output,
        `${key}.test_file=${join(dir, "metadata.jsonl")}`, `${key}.time_scale=1.0`, `${key}.test_batch_size=4`, `${key}.memory_limit_mb=512`],
      { env: { GYM_SANDBOX_TAG: tag } },
    );
    server.close();
    expect(result.stderr).not.toContain("Error:");
    expect(result.code).toBe(0);
    const rows = readFileSync(output, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rows).toHaveLength(names.length);
    for (const row of rows) {
      const name = names[row._ng_task_index]!;
      const out = row.details.test_case_results.all.outputs[0] ?? {};
      if (process.env.HOSTILE_DEBUG) console.log(name, row.reward, JSON.stringify([out.compile_stderr?.slice(0, 200), out.run_stdout?.slice(0, 50), out.run_stderr?.slice(0, 200), out.error]));
      expect([name, row.reward]).toEqual([name, name === "a correct program" ? 1 : 0]);
    }
    expect(connections).toBe(0);
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(dir, "planted"))).toBe(false);
    expect(existsSync("/etc/planted")).toBe(false);
    expect(existsSync("/usr/planted")).toBe(false);
    expect(taggedProcesses()).toEqual([]);
  }, 300_000);
});
