// Hostile programs through the compiled binary: `gym eval reverify --resources-server code_gen` re-scores rollouts
// whose "solution" attacks the machine. Each would score 1 if its attack worked (its expected output is what it
// prints on success), so a 0 proves the attack failed; afterwards no process of the run is left, nothing outside
// changed, and a correct program still scores 1.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../testing/binary.ts";
import { detectSandbox } from "./index.ts";

const hasBwrap = (await detectSandbox()).kind === "bwrap";
if (!hasBwrap) console.warn("skip: hostile-program tests because bubblewrap is not available (apt-get install bubblewrap)");

const dir = mkdtempSync(join(tmpdir(), "gym-hostile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tag = `hostile-${process.pid}-${Date.now()}`;
const secret = join(dir, "secret.txt");
writeFileSync(secret, "TOP-SECRET\n");
const outsideFile = join(tmpdir(), `${tag}-written`);

// Every program reads one line of JSON (paths and ports) and ignores SIGALRM, so only the sandbox can stop it.
const PRELUDE = "import json, os, signal, sys\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\ncfg = json.loads(input())\n";
const PROGRAMS: Record<string, { code: string; expected: string; reason: RegExp }> = {
  "infinite loop": { code: "while True: pass", expected: "done", reason: /CPU-time limit|wall-clock limit/ },
  "fork bomb": { code: "import posix\nwhile True:\n    try: posix.fork()\n    except OSError: pass", expected: "done", reason: /process limit/ },
  "50 GB allocation": {
    code: "try:\n    big = bytearray(50 * 1024**3)\nexcept MemoryError:\n    pass\nhoard = []\nwhile True: hoard.append(bytearray(64 * 1024**2))",
    expected: "done",
    reason: /memory limit/,
  },
  "10 GB of output": { code: "chunk = b'x' * (1 << 20)\nfor _ in range(10 * 1024):\n    os.write(1, chunk); os.write(2, chunk)\nprint('done')", expected: "nothing", reason: /output limit/ },
  "sleeping past the limit": { code: "import time\ntime.sleep(3600)\nprint('done')", expected: "done", reason: /wall-clock limit/ },
  "socket to 127.0.0.1": {
    code: "import socket\ns = socket.create_connection(('127.0.0.1', cfg['port']), timeout=2)\nprint(s.recv(100).decode().strip())",
    expected: "HELLO-FROM-HOST",
    reason: /Runtime Error/,
  },
  "route to the internet": {
    // Sends nothing: reads the namespace's interfaces and routes; it would print "online" with a non-loopback route.
    code: "routes = open('/proc/net/route').read().splitlines()[1:]\nifaces = [l.split(':')[0].strip() for l in open('/proc/net/dev').read().splitlines()[2:]]\nprint('online' if routes or set(ifaces) - {'lo'} else 'offline')",
    expected: "online",
    reason: /Wrong answer/,
  },
  "reading ~/.ssh and the run's files": {
    code: "print(open(cfg['secret']).read().strip())\nprint(sorted(os.listdir(os.path.expanduser('~root/.ssh'))))",
    expected: "TOP-SECRET",
    reason: /Runtime Error/,
  },
  "writing outside its temp dir": {
    code: "for p in [cfg['outside'], cfg['dir'] + '/planted', '/etc/planted', '/usr/planted']:\n    try:\n        open(p, 'w').write('x'); print('wrote', p)\n    except OSError:\n        pass\nprint('done')",
    expected: "wrote",
    reason: /Wrong answer/,
  },
  "killing its parent": {
    code: "import ctypes\nlibc = ctypes.CDLL(None)\nhits = [libc.kill(os.getppid(), 9), libc.kill(cfg['runner'], 9)]\nprint('killed' if 0 in hits else 'alive')",
    expected: "killed",
    reason: /Wrong answer/,
  },
  "a correct program": { code: "print('done')", expected: "done", reason: /^$/ },
};

function rolloutFiles(port: number) {
  const config = JSON.stringify({ port, secret, outside: outsideFile, dir, runner: process.pid });
  const inputs: string[] = [];
  const rollouts: string[] = [];
  const names = Object.keys(PROGRAMS);
  names.forEach((name, task) => {
    const { code, expected } = PROGRAMS[name]!;
    const params = { input: [{ role: "user", content: name }] };
    const stamps = { _ng_task_index: task, _ng_rollout_index: 0, agent_ref: { name: "code_gen_simple_agent" } };
    const unitTests = { inputs: [`${config}\n`], outputs: [`${expected}\n`], fn_name: null };
    inputs.push(JSON.stringify({ responses_create_params: params, verifier_metadata: { unit_tests: unitTests }, ...stamps }));
    const text = `\`\`\`python\n${PRELUDE}${code}\n\`\`\``;
    const response = {
      id: `resp_${task}`, created_at: 1, model: "m", object: "response", parallel_tool_calls: true, tool_choice: "auto", tools: [],
      output: [{ id: `msg_${task}`, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }],
    };
    rollouts.push(JSON.stringify({ responses_create_params: params, response, reward: 0, ...stamps }));
  });
  writeFileSync(join(dir, "inputs.jsonl"), `${inputs.join("\n")}\n`);
  writeFileSync(join(dir, "rollouts.jsonl"), `${rollouts.join("\n")}\n`);
  return names;
}

/** Pids of live processes whose environment carries this test's tag (the sandbox passes it on to every program). */
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

describe("hostile programs through gym eval reverify (code_gen in bubblewrap)", () => {
  (hasBwrap ? test : test.skip)("each scores 0 with a reason; no process survives; nothing outside changes; a correct program still scores 1", async () => {
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.end("HELLO-FROM-HOST\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const names = rolloutFiles(port);
    const output = join(dir, "reverified.jsonl");
    const server_ = "++code_gen.resources_servers.code_gen";
    const result = await gym(
      ["eval", "reverify", "--resources-server", "code_gen", "--inputs", join(dir, "inputs.jsonl"), "--rollouts", join(dir, "rollouts.jsonl"), "-o", output,
        `${server_}.unit_test_timeout_secs=2`, `${server_}.memory_limit_mb=256`, `${server_}.num_processes=4`],
      { env: { GYM_SANDBOX_TAG: tag, ...(process.env.HOSTILE_DEBUG_MODE ? { GYM_SANDBOX: process.env.HOSTILE_DEBUG_MODE } : {}) } },
    );
    server.close();
    if (process.env.HOSTILE_DEBUG) console.log(readFileSync(output, "utf8").trim().split("\n").map((l) => { const r = JSON.parse(l); return `${r._ng_task_index} ${r.reward} ${JSON.stringify(r.metadata?.error_message)}`; }).join("\n"));
    expect(result.stderr).not.toContain("Error:");
    expect(result.code).toBe(0);
    const rows = readFileSync(output, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rows).toHaveLength(names.length);
    for (const row of rows) {
      const name = names[row._ng_task_index]!;
      const why = String(row.metadata?.error_message ?? "");
      if (name === "a correct program") {
        expect([name, row.reward]).toEqual([name, 1]);
        continue;
      }
      expect([name, row.reward]).toEqual([name, 0]);
      expect([name, why]).toEqual([name, expect.stringMatching(PROGRAMS[name]!.reason)]);
    }
    expect(connections).toBe(0);
    expect(existsSync(outsideFile)).toBe(false);
    expect(existsSync(join(dir, "planted"))).toBe(false);
    expect(existsSync("/etc/planted")).toBe(false);
    expect(taggedProcesses()).toEqual([]);
  }, 240_000);
});
