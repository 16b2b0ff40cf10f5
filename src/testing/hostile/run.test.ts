/** Hostile inputs for `gym eval run`: bad datasets, flags, configs and prompt configs, outputs over inputs. */
import { hostileSuite, type HostileCase } from "../hostile.ts";
import { setField } from "../hostile-base.ts";
import { aliasBomb, badLines, deepLine } from "./shared.ts";

const RUN = ["eval", "run", "--resources-server", "mcqa", "--model-type", "replay_model/mcqa_example"];
const run = (...extra: string[]) => [...RUN, ...extra];
const withInput = (file: string) => run("--input", file, "-o", "out/r.jsonl");

const flag = (name: string, value: string, expect: string): HostileCase => ({
  name: `run: ${name} ${value}`,
  args: run("--input", "in.jsonl", "-o", "out/r.jsonl", name, value),
  code: 2,
  message: [name, expect],
});

const cases: HostileCase[] = [
  ...badLines("d.jsonl", "dataset", withInput, "run"),
  { name: "run: responses_create_params is a string on line 2", files: { "d.jsonl": (b) => setField(b.dataset, 2, "responses_create_params", "hello") }, args: withInput("d.jsonl"), message: ["d.jsonl:2", "responses_create_params"] },
  { name: "run: responses_create_params.input is a number on line 2", files: { "d.jsonl": (b) => setField(b.dataset, 2, "responses_create_params", { input: 5 }) }, args: withInput("d.jsonl"), message: ["d.jsonl:2", "responses_create_params.input", "valid string"] },
  { name: "run: responses_create_params has an unknown key on line 3", files: { "d.jsonl": (b) => setField(b.dataset, 3, "responses_create_params", { input: "hi", temprature: 0.5 }) }, args: withInput("d.jsonl"), message: ["d.jsonl:3", "temprature", "Extra inputs"] },
  { name: "run: line 2 nests 5000 arrays deep", files: { "d.jsonl": (b) => deepLine(b.dataset, 2) }, args: withInput("d.jsonl"), message: [/d\.jsonl:2:\d+/, "1000 levels"] },
  { name: "run: agent_ref is a string on line 2", files: { "d.jsonl": (b) => setField(b.dataset, 2, "agent_ref", "mcqa_simple_agent") }, args: withInput("d.jsonl"), message: ["d.jsonl:2", "agent_ref"] },
  // Outputs over inputs, sidecars included.
  { name: "run: -o is --input", args: run("--input", "in.jsonl", "-o", "in.jsonl"), code: 2, message: ["in.jsonl", "--input", "overwrite"] },
  { name: "run: -o is --input spelled ./", args: run("--input", "./in.jsonl", "-o", "in.jsonl"), code: 2, message: ["overwrite"] },
  { name: "run: -o is a symlink to --input", files: { "l.jsonl": { symlink: "in.jsonl" } }, args: run("--input", "in.jsonl", "-o", "l.jsonl"), code: 2, message: ["l.jsonl", "overwrite"] },
  { name: "run: -o is a dangling symlink into --input's place", files: { "sub/l.jsonl": { symlink: "../in.jsonl" } }, args: run("--input", "in.jsonl", "-o", "sub/l.jsonl"), code: 2, message: ["overwrite"] },
  { name: "run: -o is a hard link to --input", shell: `ln in.jsonl h.jsonl && $GYM ${RUN.join(" ")} --input in.jsonl -o h.jsonl; s=$?; rm h.jsonl; exit $s`, code: 2, message: ["h.jsonl", "overwrite"] },
  { name: "run: the materialized-inputs sidecar of -o is --input", args: run("--input", "r_materialized_inputs.jsonl", "-o", "r.jsonl"), code: 2, message: ["r_materialized_inputs.jsonl", "materialized inputs", "overwrite"] },
  { name: "run: the failures sidecar of -o is --input", files: { "x_failures.jsonl": (b) => b.dataset }, args: run("--input", "x_failures.jsonl", "-o", "x.jsonl"), code: 2, message: ["x_failures.jsonl", "failures", "overwrite"] },
  { name: "run: the resolved-config sidecar of -o is --config", files: { "x_resolved_config.yaml": "a: 1\n" }, args: run("--config", "x_resolved_config.yaml", "--input", "in.jsonl", "-o", "x.jsonl"), code: 2, message: ["x_resolved_config.yaml", "overwrite"] },
  { name: "run: the resolved-config sidecar of -o is --prompt-config", files: { "p_resolved_config.yaml": "user: '{question}'\n", "q.jsonl": (b) => b.dataset.replace(/"input": \[[^\]]*\], /g, "") }, args: run("--input", "q.jsonl", "--prompt-config", "p_resolved_config.yaml", "-o", "p.jsonl"), code: 2, message: ["p_resolved_config.yaml", "overwrite"] },
  { name: "run: -o is an existing directory", files: { outdir: { dir: true } }, args: run("--input", "in.jsonl", "-o", "outdir"), code: 2, message: ["outdir", "directory"] },
  { name: "run: --output --resume", args: run("--input", "in.jsonl", "--output", "--resume"), code: 2, message: ["--output", "--resume"] },
  { name: "run: --input --output", args: run("--input", "--output", "x.jsonl"), code: 2, message: ["--input", "--output"] },
  { name: "run: --output without a value", args: run("--input", "in.jsonl", "--output"), code: 2, message: ["--output", "value"] },
  { name: "run: -o below a regular file", args: run("--input", "in.jsonl", "-o", "in.jsonl/r.jsonl"), message: ["in.jsonl", /is a file|not a directory/] },
  // Flags checked up front.
  flag("--limit", "-2", "≥ 1"),
  flag("--limit", "0", "≥ 1"),
  flag("--limit", "abc", "number"),
  flag("--limit", "1.5", "whole number"),
  flag("--concurrency", "0", "≥ 1"),
  flag("--concurrency", "-4", "≥ 1"),
  flag("--max-output-tokens", "-5", "≥ 1"),
  flag("--max-output-tokens", "many", "number"),
  flag("--num-repeats", "0", "≥ 1"),
  flag("--num-repeats", "2.5", "whole number"),
  flag("--num-repeats", "{simple_agent: 0}", "num-repeats"),
  flag("--temperature", "-1", "≥ 0"),
  flag("--top-p", "2", "(0, 1]"),
  flag("--model-url", "not a url", "http(s) URL"),
  flag("--model-url", "ftp://example.com/v1", "http(s) URL"),
  { name: "run: --input \"\" (an unset variable) does not fall back to the example dataset", args: run("--input", "", "-o", "out/r.jsonl"), code: 2, message: ["--input", "empty value"] },
  { name: "run: --input= with nothing after it", args: run("--input=", "-o", "out/r.jsonl"), code: 2, message: ["--input", "empty value"] },
  { name: "run: -o DIR/ names a folder (it would write DIR.jsonl)", args: run("--input", "in.jsonl", "-o", "newdir/"), code: 2, message: ["newdir/", "folder", "newdir/rollouts.jsonl"] },
  { name: "run: --output=DIR/ names a folder", args: run("--input", "in.jsonl", "--output=newdir/"), code: 2, message: ["newdir/", "folder"] },
  { name: "run: a live foreign lock names its holder and how to override", files: { "r2_run.lock": '{"pid": 1, "host": "otherhost"}\n' }, args: run("--input", "in.jsonl", "-o", "r2.jsonl"), message: ["pid 1 on host otherhost", "r2_run.lock"] },
  { name: "run: --num-repeats 1000000000 is refused with the count", args: run("--input", "in.jsonl", "-o", "out/r.jsonl", "--num-repeats", "1000000000"), message: ["5000000000", "--num-repeats"] },
  // Files that are not there or not files.
  { name: "run: --input does not exist", args: withInput("nope.jsonl"), message: ["nope.jsonl"] },
  { name: "run: --input is a directory", files: { "d.jsonl": { dir: true } }, args: withInput("d.jsonl"), message: ["d.jsonl", "directory"] },
  // Configs and prompt configs.
  { name: "run: --prompt-config does not exist", args: run("--input", "in.jsonl", "--prompt-config", "nope.yaml", "-o", "out/r.jsonl"), message: ["nope.yaml"] },
  { name: "run: --prompt-config with a NUL byte", files: { "p.yaml": "user: 'a\u0000b {question}'\n" }, args: run("--input", "in.jsonl", "--prompt-config", "p.yaml", "-o", "out/r.jsonl"), message: ["p.yaml:1", "NUL"] },
  { name: "run: --prompt-config not valid UTF-8", files: { "p.yaml": new Uint8Array([0x75, 0x73, 0x65, 0x72, 0x3a, 0x20, 0xe9, 0x0a]) }, args: run("--input", "in.jsonl", "--prompt-config", "p.yaml", "-o", "out/r.jsonl"), message: ["p.yaml:1", /byte/i] },
  { name: "run: --prompt-config malformed YAML", files: { "p.yaml": "user: [unclosed\n" }, args: run("--input", "in.jsonl", "--prompt-config", "p.yaml", "-o", "out/r.jsonl"), message: ["p.yaml"] },
  { name: "run: --prompt-config alias bomb", files: { "p.yaml": `${aliasBomb()}user: x\n` }, args: run("--input", "in.jsonl", "--prompt-config", "p.yaml", "-o", "out/r.jsonl"), message: ["p.yaml", /alias/i] },
  { name: "run: --prompt-config user is a list", files: { "p.yaml": "user: [a, b]\n" }, args: run("--input", "in.jsonl", "--prompt-config", "p.yaml", "-o", "out/r.jsonl"), message: ["p.yaml", "user"] },
  { name: "run: --config does not exist", args: run("--config", "nope.yaml", "--input", "in.jsonl", "-o", "out/r.jsonl"), message: ["nope.yaml"] },
  { name: "run: --config with a NUL byte", files: { "c.yaml": "x: 1\ny: a\u0000\n" }, args: run("--config", "c.yaml", "--input", "in.jsonl", "-o", "out/r.jsonl"), message: ["c.yaml:2", "NUL"] },
  { name: "run: --config not valid UTF-8", files: { "c.yaml": new Uint8Array([0x78, 0x3a, 0x20, 0x31, 0x0a, 0x79, 0x3a, 0x20, 0xc3, 0x28, 0x0a]) }, args: run("--config", "c.yaml", "--input", "in.jsonl", "-o", "out/r.jsonl"), message: ["c.yaml:2", /byte/i] },
  { name: "run: --config alias bomb", files: { "c.yaml": aliasBomb() }, args: run("--config", "c.yaml", "--input", "in.jsonl", "-o", "out/r.jsonl"), message: ["c.yaml", /alias/i] },
  { name: "run: --config malformed YAML", files: { "c.yaml": "a: [1, 2\nb: 3\n" }, args: run("--config", "c.yaml", "--input", "in.jsonl", "-o", "out/r.jsonl"), message: ["c.yaml", "line"] },
  { name: "run: --config is a directory", files: { "c.yaml": { dir: true } }, args: run("--config", "c.yaml", "--input", "in.jsonl", "-o", "out/r.jsonl"), message: ["c.yaml"] },
];

hostileSuite("hostile inputs: gym eval run", cases);
