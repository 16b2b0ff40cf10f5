/** Hostile inputs for `gym dataset render` and `gym dataset collate`: bad rows and prompt configs, outputs over inputs, nothing half-written. */
import { hostileSuite, type HostileCase } from "../hostile.ts";
import { rawLine, setField, type BaseRun } from "../hostile-base.ts";
import { aliasBomb, badLines } from "./shared.ts";

const PROMPT = "user: 'Q: {question}'\n";
/** Raw rows for render: the dataset without its prompts, with a `question` field. */
const raw = (text: string) => text.split("\n").filter(Boolean).map((l, i) => JSON.stringify({ question: `q${i}`, expected_answer: (JSON.parse(l) as { expected_answer?: string }).expected_answer ?? "A" })).join("\n") + "\n";
const render = (input: string, out = "out/rendered.jsonl", prompt = "p.yaml") => ["dataset", "render", "--input", input, "--prompt-config", prompt, "--output", out];

/** A config whose one agent has an `example` dataset at d.jsonl. */
const COLLATE_CONFIG = `mcqa:
  resources_servers:
    mcqa:
      entrypoint: app.py
      domain: knowledge
mcqa_simple_agent:
  responses_api_agents:
    simple_agent:
      entrypoint: app.py
      resources_server: {type: resources_servers, name: mcqa}
      model_server: {type: responses_api_models, name: policy_model}
      datasets:
      - {name: example, type: example, jsonl_fpath: d.jsonl}
`;
const collate = (outDir = "col") => ["dataset", "collate", "--config", "c.yaml", "--mode", "example_validation", "--output-dir", outDir];
const withDataset = (file: string) => (file === "d.jsonl" ? collate() : collate());

const renderCases: HostileCase[] = badLines("d.jsonl", "dataset", (f) => render(f), "render").map((c) => ({
  ...c,
  files: { "p.yaml": PROMPT, ...Object.fromEntries(Object.entries(c.files!).map(([k, make]) => [k, (b: BaseRun) => (typeof make === "function" ? make({ ...b, dataset: raw(b.dataset) }) : make)])) },
}));

const collateCases: HostileCase[] = badLines("d.jsonl", "dataset", withDataset, "collate").map((c) => ({ ...c, files: { ...c.files, "c.yaml": COLLATE_CONFIG } }));

const cases: HostileCase[] = [
  ...renderCases,
  { name: "render: a row without the template's field", files: { "p.yaml": PROMPT, "d.jsonl": (b) => setField(raw(b.dataset), 3, "question", undefined) }, args: render("d.jsonl"), message: ["d.jsonl:3", "question"] },
  { name: "render: -o is --input", files: { "p.yaml": PROMPT, "d.jsonl": (b) => raw(b.dataset) }, args: render("d.jsonl", "d.jsonl"), code: 2, message: ["d.jsonl", "--input", "overwrite"] },
  { name: "render: -o is a symlink to --input", files: { "p.yaml": PROMPT, "d.jsonl": (b) => raw(b.dataset), "l.jsonl": { symlink: "d.jsonl" } }, args: render("d.jsonl", "l.jsonl"), code: 2, message: ["l.jsonl", "overwrite"] },
  { name: "render: -o is --prompt-config", files: { "p.yaml": PROMPT, "d.jsonl": (b) => raw(b.dataset) }, args: render("d.jsonl", "p.yaml"), code: 2, message: ["p.yaml", "--prompt-config", "overwrite"] },
  { name: "render: -o is an existing directory", files: { "p.yaml": PROMPT, "d.jsonl": (b) => raw(b.dataset), od: { dir: true } }, args: render("d.jsonl", "od"), code: 2, message: ["od", "directory"] },
  { name: "render: --output --input", files: { "p.yaml": PROMPT }, args: ["dataset", "render", "--prompt-config", "p.yaml", "--output", "--input", "in.jsonl"], code: 2, message: ["--output", "--input"] },
  { name: "render: --prompt-config with a NUL", files: { "p.yaml": "user: 'Q\u0000 {question}'\n", "d.jsonl": (b) => raw(b.dataset) }, args: render("d.jsonl"), message: ["p.yaml:1", "NUL"] },
  { name: "render: --prompt-config alias bomb", files: { "p.yaml": `${aliasBomb()}user: x\n`, "d.jsonl": (b) => raw(b.dataset) }, args: render("d.jsonl"), message: ["p.yaml", /alias/i] },
  { name: "render: --prompt-config not UTF-8", files: { "p.yaml": new Uint8Array([0x75, 0x73, 0x65, 0x72, 0x3a, 0x20, 0xff, 0x0a]), "d.jsonl": (b) => raw(b.dataset) }, args: render("d.jsonl"), message: ["p.yaml:1", /byte/i] },
  { name: "render: --input does not exist", files: { "p.yaml": PROMPT }, args: render("nope.jsonl"), message: ["nope.jsonl"] },
  ...collateCases,
  { name: "collate: a bad row leaves no metrics and no partial output", files: { "c.yaml": COLLATE_CONFIG, "d.jsonl": (b) => rawLine(b.dataset, 4, "[1]") }, args: collate(), message: ["d.jsonl:4"] },
  { name: "collate: --output-dir's collated file is the dataset", files: { "c.yaml": COLLATE_CONFIG.replace("jsonl_fpath: d.jsonl", "jsonl_fpath: col/example.jsonl"), "col/example.jsonl": (b) => b.dataset }, args: collate(), code: 2, message: ["col/example.jsonl", "overwrite"] },
  { name: "collate: one dataset's prepared copy is another dataset", files: { "c.yaml": COLLATE_CONFIG.replace("- {name: example, type: example, jsonl_fpath: d.jsonl}", "- {name: example, type: example, jsonl_fpath: a.jsonl}\n      - {name: second, type: example, jsonl_fpath: a_prepare.jsonl}"), "a.jsonl": (b) => b.dataset, "a_prepare.jsonl": (b) => b.dataset }, args: collate(), code: 2, message: ["a_prepare.jsonl", "overwrite"] },
  { name: "collate: a config with a NUL", files: { "c.yaml": COLLATE_CONFIG.replace("entrypoint: app.py", "entrypoint: app\u0000.py"), "d.jsonl": (b) => b.dataset }, args: collate(), message: ["c.yaml:4", "NUL"] },
  { name: "collate: a config alias bomb", files: { "c.yaml": `${aliasBomb()}${COLLATE_CONFIG}`, "d.jsonl": (b) => b.dataset }, args: collate(), message: ["c.yaml", /alias/i] },
  { name: "collate: a row without responses_create_params", files: { "c.yaml": COLLATE_CONFIG, "d.jsonl": (b) => setField(b.dataset, 3, "responses_create_params", undefined) }, args: collate(), message: ["d.jsonl:3", "no responses_create_params"] },
  { name: "collate: --output-dir is a file (no metrics written first)", files: { "c.yaml": COLLATE_CONFIG, "d.jsonl": (b) => b.dataset, col: "not a folder\n" }, args: collate(), code: 2, message: ["--output-dir col", "a file"] },
  { name: "collate: --output-dir is below a file", files: { "c.yaml": COLLATE_CONFIG, "d.jsonl": (b) => b.dataset, col: "not a folder\n" }, args: collate("col/sub"), code: 2, message: ["col is a file"] },
  { name: "collate: a dataset that does not exist", files: { "c.yaml": COLLATE_CONFIG }, args: collate(), message: ["d.jsonl"] },
  { name: "collate: --output-dir takes a flag", files: { "c.yaml": COLLATE_CONFIG, "d.jsonl": (b) => b.dataset }, args: ["dataset", "collate", "--config", "c.yaml", "--mode", "example_validation", "--output-dir", "--mode"], code: 2, message: ["--output-dir", "--mode"] },
];

hostileSuite("hostile inputs: gym dataset render and collate", cases);
