/** Hostile inputs for `gym eval compare`, `compare-suite`, `health-check` and `status`: bad metrics files, suites, status files; reports over inputs. */
import { hostileSuite, type HostileCase } from "../hostile.ts";
import { aliasBomb, badLines } from "./shared.ts";

const compare = (...extra: string[]) => ["eval", "compare", "--baseline", "r.jsonl", "--candidates", "c/r.jsonl", ...extra];
const candidate = { "c/r.jsonl": (b: { rollouts: string }) => b.rollouts, "c/r_aggregate_metrics.json": (b: { metrics: string }) => b.metrics };
const badMetrics = (name: string, text: string | Uint8Array, message: (string | RegExp)[]): HostileCase => ({ name: `compare: candidate metrics ${name}`, files: { ...candidate, "c/r_aggregate_metrics.json": text }, args: compare(), message: ["c/r_aggregate_metrics.json", ...message] });

const SUITE = "benchmarks:\n  mcqa:\n    metrics: [mean/reward]\nmodels:\n  m1:\n    mcqa:\n      baseline_agg_metrics: r_aggregate_metrics.json\n      candidate_agg_metrics: r_aggregate_metrics.json\n";
const suite = (text: string | Uint8Array, message: (string | RegExp)[], name: string): HostileCase => ({ name: `compare-suite: ${name}`, files: { "s.yaml": text }, args: ["eval", "compare-suite", "--suite", "s.yaml", "--output-dir", "rep"], message: ["s.yaml", ...message] });

const health = (file: string) => ["eval", "health-check", ".", "--rollouts-file", file];

const cases: HostileCase[] = [
  badMetrics("is not JSON", "{\"agent_ref\": ", [/JSON/]),
  badMetrics("is empty", "", [/empty|JSON/]),
  badMetrics("is not UTF-8", new Uint8Array([0x5b, 0x7b, 0x22, 0xff, 0x22, 0x7d, 0x5d]), [/UTF-8|byte/i]),
  badMetrics("is an object, not a list", "{\"a\": 1}\n", [/list|array/i]),
  badMetrics("has a string mean/reward", '[{"agent_ref": {"name": "mcqa_simple_agent"}, "agent_metrics": {"mean/reward": "0.8"}}]', ["mean/reward"]),
  { name: "compare: --confidence-level 2", files: candidate, args: compare("--confidence-level", "2"), code: 2, message: ["--confidence-level"] },
  { name: "compare: --confidence-level abc", files: candidate, args: compare("--confidence-level", "abc"), code: 2, message: ["--confidence-level"] },
  { name: "compare: --report-format xml", files: candidate, args: compare("--report-format", "xml"), code: 2, message: ["--report-format"] },
  { name: "compare: the report is an input", files: { ...candidate, "c/compare_report.json": (b) => b.metrics }, args: [...compare(), "--candidates-agg-metrics", "c/compare_report.json"], code: 2, message: ["compare_report.json", "overwrite"] },
  { name: "compare: --output-dir below a regular file", files: candidate, args: compare("--output-dir", "in.jsonl/rep"), message: ["in.jsonl", /is a file|not a directory/] },
  { name: "compare: the baseline metrics do not exist", files: candidate, args: ["eval", "compare", "--baseline", "c/none.jsonl", "--candidates", "c/r.jsonl"], message: ["none_aggregate_metrics.json"] },
  { name: "compare: --output-dir takes a flag", files: candidate, args: compare("--output-dir", "--json"), code: 2, message: ["--output-dir"] },
  suite("metrics: [a\n", [/line/], "malformed YAML"),
  suite(`${SUITE}x: "a\u0000b"\n`, ["NUL"], "a NUL byte"),
  suite(new Uint8Array([...new TextEncoder().encode(SUITE), 0x78, 0x3a, 0x20, 0xfe, 0x0a]), [/byte/i], "invalid UTF-8"),
  suite(`${aliasBomb()}${SUITE}`, [/alias/i], "an alias bomb"),
  suite("benchmarks: 3\n", [/benchmarks/], "benchmarks is a number"),
  suite(SUITE.replace(/r_aggregate_metrics\.json/g, "none.json"), ["none.json"], "a run's metrics file is missing"),
  { name: "compare-suite: the report is the suite", files: { "suite_compare_report.json": SUITE }, args: ["eval", "compare-suite", "--suite", "suite_compare_report.json"], code: 2, message: ["suite_compare_report.json", "overwrite"] },
  { name: "compare-suite: --confidence-level 0", files: { "s.yaml": SUITE }, args: ["eval", "compare-suite", "--suite", "s.yaml", "--confidence-level", "0"], code: 2, message: ["--confidence-level"] },
  ...badLines("h.jsonl", "rollouts", health, "health-check", { code: 1 }).filter((c) => /empty|blank|UTF-8|continuation|overlong/.test(c.name)),
  { name: "health-check: the run dir does not exist", args: ["eval", "health-check", "nope"], message: ["nope"] },
  { name: "health-check: the run dir is a file", args: ["eval", "health-check", "in.jsonl"], message: ["in.jsonl"] },
  { name: "health-check: an unknown --ignore-checks id", args: ["eval", "health-check", ".", "--rollouts-file", "r.jsonl", "--ignore-checks", "no_such_check"], code: 2, message: ["no_such_check"] },
  { name: "status: a batch status that is not JSON", files: { "x_batch_status.json": "{\"completed\": " }, args: ["eval", "status", "x.jsonl"], message: ["x_batch_status.json"] },
  { name: "status: a batch status that is not UTF-8", files: { "x_batch_status.json": new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) }, args: ["eval", "status", "x.jsonl"], message: ["x_batch_status.json"] },
  { name: "status: the target does not exist", args: ["eval", "status", "nope"], message: ["nope"] },
];

hostileSuite("hostile inputs: gym eval compare, compare-suite, health-check and status", cases);
