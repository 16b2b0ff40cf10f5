/** `gym eval run`: collect rollouts from a model through agents and resources servers, durably (resume, sidecars, metrics). */
import type { ConfigValue } from "../../../config/index.ts";
import { GymError } from "../../../errors.ts";
import { configArgs, configOptions, modelArgs } from "../../_args.ts";
import { allValues, defineGymCommand } from "../../_command.ts";
import { cacheArgs, cacheFlagKeys } from "../../cache/_flags.ts";

export default defineGymCommand({
  meta: { name: "eval run", description: "Collect rollouts: materialize the dataset, dispatch to agents, verify, write rollouts and metrics" },
  args: {
    target: { type: "positional", required: false, description: "A Harbor task folder, a folder of task folders, a harbor:<dataset>[@<version>] reference or a pulled entry (with --agent harbor_oracle, or --agent terminal and a model), in place of --benchmark", valueHint: "TARGET" },
    sandbox: { type: "string", description: "Harbor TARGET only: the sandbox provider, local (plain Linux on bubblewrap; see gym dataset validate --help for its limits)", valueHint: "PROVIDER" },
    "only-tasks": { type: "string", description: "Harbor TARGET only: globs over task ids to run", valueHint: "GLOB" },
    "exclude-tasks": { type: "string", description: "Harbor TARGET only: globs over task ids to leave out", valueHint: "GLOB" },
    ...configArgs,
    ...modelArgs,
    serve: { type: "boolean", default: true, description: "Start the configured servers in this process", negativeDescription: "Collect against servers already running (`gym env start`, or NeMo Gym's), found through the head server" },
    agent: { type: "string", alias: "a", description: "Agent instance for every row (sets agent_name); for a Harbor TARGET: harbor_oracle, terminal, codex_agent, opencode_agent or claude_code_agent", valueHint: "NAME" },
    input: { type: "string", alias: "i", description: "Dataset JSONL to collect from, or - for stdin (sets input_jsonl_fpath)", valueHint: "PATH" },
    output: { type: "string", alias: "o", description: "Rollouts JSONL; sidecars are written beside it; - streams rollouts to stdout", valueHint: "PATH" },
    split: { type: "string", description: "Dataset split to collect when no --input: train, validation, benchmark or example", valueHint: "SPLIT" },
    limit: { type: "string", description: "Only the first N input lines", valueHint: "N" },
    "num-repeats": { type: "string", description: "Rollouts per task: an int, or a map like '{simple_agent: 4, _default: 1}'", valueHint: "K" },
    concurrency: { type: "string", description: "Rollouts in flight at once (sets num_samples_in_parallel); the ceiling of the adaptive model-call limit", valueHint: "N" },
    adaptive: { type: "boolean", default: true, description: "Learn each model endpoint's concurrency from its 429s and x-ratelimit-* headers (openai_model)", negativeDescription: "Keep a fixed concurrency: every rollout calls the model at once (sets adaptive_concurrency=false)" },
    "prompt-config": { type: "string", description: "Prompt template YAML applied to each row", valueHint: "PATH" },
    temperature: { type: "string", description: "Sampling temperature (responses_create_params.temperature)", valueHint: "T" },
    "top-p": { type: "string", description: "Nucleus sampling (responses_create_params.top_p)", valueHint: "P" },
    "max-output-tokens": { type: "string", description: "Output token cap (responses_create_params.max_output_tokens)", valueHint: "N" },
    resume: { type: "boolean", description: "Continue a crashed or killed run where it stopped (sets resume_from_cache)" },
    batch: { type: "boolean", description: "Send model calls through the provider's Batch API (/v1/files + /v1/batches), simple_agent only; --resume re-attaches to batches in flight (sets batch_api)" },
    prices: { type: "string", description: "Prices YAML (MODEL: {input, output, cached_input, reasoning} USD per million tokens) over the built-in table (sets prices)", valueHint: "FILE" },
    "max-cost": { type: "string", description: "Stop dispatching before the run could pass this many USD; exit 77, --resume with a larger budget continues (sets max_cost_usd)", valueHint: "USD" },
    "max-tokens": { type: "string", description: "Stop dispatching before the run could pass this many tokens (input + output, policy and judges); exit 77 (sets max_tokens)", valueHint: "N" },
    "disable-aggregation": { type: "boolean", description: "Do not write <stem>_aggregate_metrics.json" },
    ...cacheArgs,
  },
  overrides: true,
  examples: [
    "gym eval run --resources-server mcqa --model-type openai_model --model gpt-4.1-mini \\",
    "    --model-url https://api.openai.com/v1 --model-api-key $OPENAI_API_KEY --output results/mcqa.jsonl",
    "gym eval run --resources-server mcqa --model-type mock_model --num-repeats 4 --concurrency 64 -o results/mock.jsonl",
    "gym eval run my-dataset --agent harbor_oracle --sandbox local   # Harbor tasks: results/harbor/<taskset>/",
    "gym eval run my-dataset --agent terminal --model-type openai_model --model … --model-url …   # a model in a terminal",
    "gym eval run my-dataset --agent codex_agent --model-type openai_model --model … --model-url …   # the Codex CLI in the sandbox",
    "gym eval run ... --resume                       # after a crash or kill: no lost, no duplicated rollout",
    "gym eval run ... --cache                        # a second run serves the same model and judge calls from the cache",
    "gym eval run ... --prices prices.yaml --max-cost 5   # stops before $5; exit 77; --resume --max-cost 10 goes on",
    "gym eval run ... +route_failures_to_sidecar=true +require_complete=true   # Hydra-only keys",
    "",
    "Keys without a flag (+key=value): route_failures_to_sidecar, require_complete, count_failure_classes_as_zero=[…],",
    "count_missing_rollouts_as_zero, record_omitted_rollouts, dispatch_budget_s, drain_margin_s, dispatch_longest_first,",
    "retry_terminal_timeouts, max_resident_rollout_tasks, retain_results_in_memory, agent_map, fan_out, num_repeats_add_seed,",
    "allow_unsafe_resume, timeout_s (per /run call). NEMO_GYM_MAX_ROLLOUT_ATTEMPTS caps retries on resume (default 3).",
    "max_model_retries (default 8) and max_model_retry_seconds (default 600) bound the retries of one model call.",
    "",
    "Exit codes: 0 done (or partial results without require_complete), 1 error or nothing scored,",
    "75 incomplete and --resume can make progress, 76 incomplete and retrying will not help,",
    "77 stopped at --max-cost / --max-tokens (--resume with a larger budget continues).",
  ],
  async run({ args, rawArgs, overrides, json }) {
    if (typeof args.target === "string") {
      if (args.batch) throw new GymError("E_USAGE", "--batch works with dataset runs, not with a Harbor TARGET.", { hint: "Harbor agents make several model calls per task; leave out --batch." });
      if (args.cache || args["cache-expiry"] !== undefined) throw new GymError("E_USAGE", "--cache works with dataset runs, not with a Harbor TARGET.", { hint: "Leave out --cache (and --cache-expiry) for Harbor task folders." });
      const costFlag = ["max-cost", "max-tokens", "prices"].find((f) => args[f] !== undefined);
      if (costFlag) throw new GymError("E_USAGE", `--${costFlag} applies to dataset runs, not to a Harbor TARGET.`, { hint: "Leave it out, or run a dataset with --input / --benchmark." });
      const { harborEvalRun } = await import("./_harbor.ts");
      const only = allValues(rawArgs, "only-tasks");
      const options = () => configOptions(args, rawArgs, overrides, { mode: "run", flagValues: flagKeys({ ...args, agent: undefined }) });
      return harborEvalRun({ target: args.target, agent: args.agent, agentType: args["agent-type"], sandbox: args.sandbox, only, exclude: allValues(rawArgs, "exclude-tasks"), json, output: typeof args.output === "string" ? args.output : undefined, options });
    }
    if (args.batch && args.serve === false) throw new GymError("E_USAGE", "--batch needs the model servers in this process; with --no-serve they run elsewhere.", { hint: "Leave out --no-serve, or leave out --batch." });
    const { evalRun } = await import("./_main.ts");
    const flagValues = flagKeys(args);
    const options = await configOptions(args, rawArgs, overrides, { mode: "run", flagValues });
    return evalRun({ options, noServe: args.serve === false, output: typeof args.output === "string" ? args.output : undefined });
  },
});

/** The run flags as the config keys they set (so a flag and its `+key=value` spelling behave the same). */
function flagKeys(args: Record<string, unknown>): Record<string, ConfigValue> {
  const keys: Record<string, ConfigValue | undefined> = {};
  const num = (flag: string) => {
    const v = args[flag];
    if (typeof v !== "string") return undefined;
    const n = Number(v);
    if (v.trim() === "" || !Number.isFinite(n)) throw badNumber(flag, v);
    const range = RANGES[flag];
    if (range && !range.ok(n)) throw new GymError("E_BAD_FLAG_VALUE", `--${flag} expects ${range.what}, got '${v}'.`, { hint: `For example --${flag} ${range.example}.` });
    return n;
  };
  const str = (flag: string) => (typeof args[flag] === "string" ? (args[flag] as string) : undefined);
  keys.output_jsonl_fpath = str("output");
  keys.input_jsonl_fpath = str("input");
  keys.split = str("split");
  keys.agent_name = str("agent");
  keys.prompt_config = str("prompt-config");
  keys.limit = num("limit");
  keys.num_samples_in_parallel = num("concurrency");
  const repeats = str("num-repeats");
  if (repeats !== undefined) keys.num_repeats = /^\s*\{/.test(repeats) ? parseRepeatsMap(repeats) : num("num-repeats");
  for (const [flag, key] of [["temperature", "temperature"], ["top-p", "top_p"], ["max-output-tokens", "max_output_tokens"]] as const) {
    keys[`responses_create_params.${key}`] = num(flag);
  }
  keys.prices = str("prices");
  keys.max_cost_usd = num("max-cost");
  keys.max_tokens = num("max-tokens");
  if (args.resume) keys.resume_from_cache = true;
  if (args.adaptive === false) keys.adaptive_concurrency = false;
  if (args.batch) keys.batch_api = true;
  if (args["disable-aggregation"]) keys.disable_aggregation = true;
  Object.assign(keys, cacheFlagKeys(args));
  for (const k of Object.keys(keys)) if (keys[k] === undefined) delete keys[k];
  return keys as Record<string, ConfigValue>;
}

function parseRepeatsMap(text: string): Record<string, number> {
  const map: Record<string, number> = {};
  for (const part of text.trim().replace(/^\{|\}$/g, "").split(",")) {
    const [k, v] = part.split(":").map((s) => s.trim().replace(/^['"]|['"]$/g, ""));
    const n = Number(v);
    if (!k || !Number.isInteger(n) || n < 1) throw badNumber("num-repeats", text);
    map[k] = n;
  }
  return map;
}

const whole = (min: number) => (n: number) => Number.isInteger(n) && n >= min;
/** What each numeric flag accepts, checked before anything runs. */
const RANGES: Record<string, { ok: (n: number) => boolean; what: string; example: string }> = {
  limit: { ok: whole(1), what: "a whole number ≥ 1", example: "10" },
  concurrency: { ok: whole(1), what: "a whole number ≥ 1", example: "64" },
  "num-repeats": { ok: whole(1), what: "a whole number ≥ 1", example: "4" },
  "max-output-tokens": { ok: whole(1), what: "a whole number ≥ 1", example: "4096" },
  temperature: { ok: (n) => n >= 0, what: "a number ≥ 0", example: "0.7" },
  "top-p": { ok: (n) => n > 0 && n <= 1, what: "a number in (0, 1]", example: "0.95" },
  "max-cost": { ok: (n) => n > 0, what: "a number of USD > 0", example: "5" },
  "max-tokens": { ok: whole(1), what: "a whole number ≥ 1", example: "2000000" },
};

function badNumber(flag: string, value: string) {
  return new GymError("E_BAD_FLAG_VALUE", `--${flag} expects a number, got '${value}'.`, { hint: `For example --${flag} ${flag === "num-repeats" ? "4 (or '{simple_agent: 4, _default: 1}')" : "8"}.` });
}
