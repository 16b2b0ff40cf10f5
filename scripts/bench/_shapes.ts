/**
 * Row shapes of the stage benches, each a rollouts file of about `mb` MB plus its materialized inputs
 * (tasks × 8 repeats, repeat-major, as a real run's completion order is not sorted):
 *   a  today's bench rows (prompt, one short message, usage, reward, verifier fields; compact)
 *   b  long assistant text: 2–8 KB per row with unicode, escapes and \boxed{}, and a reasoning item
 *   c  NeMo Gym's published rollouts of several servers (tool calls, reasoning items, multi-turn,
 *      gymnasium), replicated with new identities, written as orjson writes them (compact)
 *   d  the rows of (c) as Python's default json.dumps writes them (", ", ": ", ASCII escapes)
 * Files are reused when present with the right size (delete `.bench/` to regenerate).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { parsePythonJson, stringifyPython } from "../../src/metrics/pyjson.ts";

const root = path.join(import.meta.dir, "..", "..");
const REPEATS = 8;
export const SHAPES = ["a", "b", "c", "d"] as const;
export type Shape = (typeof SHAPES)[number];

export interface ShapeFiles {
  shape: Shape;
  rollouts: string;
  inputs: string;
  bytes: number;
}

/** The rollouts of shape (c): published files of several servers, in the repository's fixtures. */
const PUBLISHED = [
  "fixtures/bench/example_multi_step.example_rollouts.jsonl",
  "fixtures/bench/example_tool_call_multireward.example_rollouts.jsonl",
  "fixtures/bench/example_session_state_mgmt.example_rollouts.jsonl",
  "fixtures/servers/example_single_tool_call_rollouts.jsonl",
  "fixtures/parity/mcqa/example_rollouts.jsonl",
  "fixtures/metrics/blackjack/example_rollouts.jsonl",
  "fixtures/metrics/example_multi_turn_gymnasium/example_rollouts.jsonl",
  "fixtures/metrics/grl_sokoban/example_rollouts.jsonl",
  "fixtures/metrics/tales/example_rollouts.jsonl",
  "fixtures/metrics/finance_sec_search/example_rollouts.jsonl",
  "fixtures/metrics/ether0/example_rollouts.jsonl",
];

const IDENTITY = new Set(["_ng_task_index", "_ng_rollout_index", "agent_ref"]);

/** Each published row without its identity, as orjson prints it, minus the closing brace; and its agent. */
function templates(): { body: string; agent: string; prompt: string }[] {
  const out: { body: string; agent: string; prompt: string }[] = [];
  for (const rel of PUBLISHED) {
    const server = rel.includes("/metrics/") || rel.includes("/parity/") ? path.basename(path.dirname(rel)) : path.basename(rel).split(".")[0]!.replace(/_rollouts$/, "");
    for (const line of fs.readFileSync(path.join(root, rel), "utf8").split("\n")) {
      if (!line.trim()) continue;
      const row = parsePythonJson(line) as Record<string, unknown>;
      const kept = Object.fromEntries(Object.entries(row).filter(([k]) => !IDENTITY.has(k)));
      const body = stringifyPython(kept);
      const prompt = stringifyPython({ responses_create_params: row.responses_create_params });
      out.push({ body: body.slice(0, -1), agent: `${server}_simple_agent`, prompt: prompt.slice(0, -1) });
    }
  }
  return out;
}

const FILLER = "lorem ipsum dolor sit amet ".repeat(15);

function rowA(task: number, rollout: number): string {
  const reward = (task * 7 + rollout * 3) % 5 < 2 ? "1.0" : "0.0";
  const out = 50 + ((task + rollout) % 200);
  return `{"responses_create_params":{"input":[{"role":"user","content":"Question ${task}: ${FILLER}"}],"temperature":1.0},"response":{"id":"resp_${task}_${rollout}","object":"response","output":[{"type":"message","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Answer ${rollout}: ${FILLER}","annotations":[]}]}],"usage":{"input_tokens":${120 + (task % 50)},"input_tokens_details":{"cached_tokens":0},"output_tokens":${out},"output_tokens_details":{"reasoning_tokens":0},"total_tokens":${120 + (task % 50) + out}}},"reward":${reward},"extracted_answer":"${String.fromCharCode(65 + ((task + rollout) % 4))}","_ng_task_index":${task},"_ng_rollout_index":${rollout},"agent_ref":{"name":"bench_agent"}}`;
}

const WORDS = ["Let", "x", "be", "the", "answer;", "we", "compute", "carefully:", "é", "naïve", "中文", "数学", "🙂", "\\frac{1}{2}", "\"quoted\"", "a\tb", "line\nbreak", "≤", "∑"];

function rowB(task: number, rollout: number): string {
  const target = 2048 + ((task * 7919 + rollout * 104729) % 6144);
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < target; i++) {
    const w = WORDS[(task + rollout * 3 + i * 7) % WORDS.length]!;
    parts.push(w);
    length += w.length + 1;
  }
  const answer = "ABCD"[(task + rollout) % 4]!;
  const text = `${parts.join(" ")}\n\nTherefore the answer is \\boxed{${answer}}.`;
  const row = {
    responses_create_params: { input: [{ role: "user", content: `Problem ${task}: find the value. Put the final answer in \\boxed{}.` }], temperature: 1 },
    response: {
      id: `resp_${task}_${rollout}`,
      object: "response",
      output: [
        { type: "reasoning", id: `rs_${task}_${rollout}`, summary: [{ type: "summary_text", text: text.slice(0, 400) }] },
        { type: "message", id: `msg_${task}_${rollout}`, role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] },
      ],
      usage: { input_tokens: 60 + (task % 40), input_tokens_details: { cached_tokens: 0 }, output_tokens: target >> 2, output_tokens_details: { reasoning_tokens: 100 }, total_tokens: 60 + (task % 40) + (target >> 2) },
    },
    expected_answer: "ABCD"[task % 4],
    extracted_answer: answer,
  };
  // Reward spelled as Python writes a float.
  return `${JSON.stringify(row).slice(0, -1)},"reward":${answer === "ABCD"[task % 4] ? "1.0" : "0.0"},"_ng_task_index":${task},"_ng_rollout_index":${rollout},"agent_ref":{"name":"math_agent"}}`;
}

function write(files: ShapeFiles, mb: number, row: (task: number, rollout: number) => { rollout: string; input: string }, perRow: number): void {
  const tasks = Math.max(10, Math.ceil((mb * 2 ** 20) / perRow / REPEATS));
  const out = fs.openSync(files.rollouts, "w");
  const inp = fs.openSync(files.inputs, "w");
  for (let r = 0; r < REPEATS; r++) {
    let block = "";
    let inBlock = "";
    for (let t = 0; t < tasks; t++) {
      const { rollout, input } = row(t, r);
      block += `${rollout}\n`;
      inBlock += `${input}\n`;
      if (block.length > 1 << 22) (fs.writeSync(out, block), fs.writeSync(inp, inBlock)), (block = inBlock = "");
    }
    fs.writeSync(out, block);
    fs.writeSync(inp, inBlock);
  }
  // On disk before timing: otherwise the kernel writes the fresh files back while the tools run.
  fs.fsyncSync(out);
  fs.fsyncSync(inp);
  fs.closeSync(out);
  fs.closeSync(inp);
}

const inputOf = (prompt: string, t: number, r: number, agent: string) => `${prompt},"_ng_task_index":${t},"_ng_rollout_index":${r},"agent_ref":{"name":"${agent}"}}`;

/** Writes (or reuses) the files of `shape` in `dir`. */
export function shapeFiles(shape: Shape, mb: number, dir: string): ShapeFiles {
  fs.mkdirSync(dir, { recursive: true });
  const files: ShapeFiles = { shape, rollouts: path.join(dir, `shape-${shape}-${mb}mb-v2.jsonl`), inputs: path.join(dir, `shape-${shape}-${mb}mb-v2_materialized_inputs.jsonl`), bytes: 0 };
  const fresh = fs.existsSync(files.rollouts) && fs.existsSync(files.inputs) && fs.statSync(files.rollouts).size > mb * 2 ** 20 * 0.9;
  if (!fresh) {
    if (shape === "a") write(files, mb, (t, r) => ({ rollout: rowA(t, r), input: inputOf(`{"responses_create_params":{"input":[{"role":"user","content":"Question ${t}: ${FILLER}"}]}`, t, r, "bench_agent") }), rowA(0, 0).length + 1);
    else if (shape === "b") write(files, mb, (t, r) => ({ rollout: rowB(t, r), input: inputOf(`{"responses_create_params":{"input":[{"role":"user","content":"Problem ${t}: find the value. Put the final answer in \\\\boxed{}."}]}`, t, r, "math_agent") }), 7400);
    else if (shape === "c") {
      const list = templates();
      const mean = list.reduce((a, x) => a + x.body.length, 0) / list.length;
      write(files, mb, (t, r) => {
        const x = list[t % list.length]!;
        // Rewards vary by rollout so that the per-task statistics are not all equal.
        const body = r % 3 === 1 ? x.body.replace(/"reward":(-?[0-9.eE+-]+)/, `"reward":${(r % 2) + 0.5}`) : x.body;
        return { rollout: `${body},"_ng_task_index":${t},"_ng_rollout_index":${r},"agent_ref":{"name":"${x.agent}"}}`, input: inputOf(x.prompt, t, r, x.agent) };
      }, mean + 90);
    } else {
      const c = shapeFiles("c", mb, dir);
      const script = "import json,sys\nfor src, dst in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):\n  with open(src, encoding='utf-8') as f, open(dst, 'w', encoding='utf-8') as o:\n    for line in f: o.write(json.dumps(json.loads(line)) + '\\n')\n";
      const run = spawnSync("python3", ["-c", script, c.rollouts, files.rollouts, c.inputs, files.inputs], { stdio: "inherit" });
      if (run.status !== 0) throw new Error("python3 could not rewrite shape (c) as shape (d)");
    }
  }
  files.bytes = fs.statSync(files.rollouts).size;
  return files;
}

/** The first `n` rollout rows of a shape as the generator writes them (for tests; shape d needs python3). */
export function sampleRows(shape: Shape, n: number): string[] {
  if (shape === "a") return Array.from({ length: n }, (_, i) => rowA(i % 97, i % 8));
  if (shape === "b") return Array.from({ length: n }, (_, i) => rowB(i % 97, i % 8));
  const list = templates();
  const c = Array.from({ length: n }, (_, i) => {
    const x = list[i % list.length]!;
    return `${x.body},"_ng_task_index":${i},"_ng_rollout_index":${i % 8},"agent_ref":{"name":"${x.agent}"}}`;
  });
  if (shape === "c") return c;
  const script = "import json,sys\nfor line in sys.stdin: print(json.dumps(json.loads(line)))\n";
  const run = spawnSync("python3", ["-c", script], { input: `${c.join("\n")}\n`, encoding: "utf8", maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error("python3 could not write shape (d)");
  return run.stdout.trimEnd().split("\n");
}

if (import.meta.main) {
  const mb = Number(process.argv[2] ?? 200);
  const dir = path.join(root, ".bench");
  for (const shape of (process.argv[3]?.split(",") as Shape[] | undefined) ?? SHAPES) {
    const f = shapeFiles(shape, mb, dir);
    console.log(`${shape}: ${f.rollouts} (${(f.bytes / 2 ** 20).toFixed(0)} MB)`);
  }
}
