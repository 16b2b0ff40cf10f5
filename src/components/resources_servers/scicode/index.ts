/**
 * scicode: SciCode's multi-step scientific code, scored by running each generated sub-step (the agent's accumulated
 * code, `solutions["<problem_id>.<step>"]`) with the sub-step's tests against the targets in SciCode's
 * `test_data.h5`, in the sandbox, with Debian's numpy / scipy / sympy / h5py. Reward 1 iff every scored sub-step
 * passes; sub-steps without a solution (prefilled ones) are not scored; the out-of-context sentinel fails.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { GymError } from "../../../errors.ts";
import { Semaphore } from "../../../jsonl/concurrency.ts";
import { bigRatio } from "../../../metrics/numeric.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { openSandbox, probePython, sandboxMode, type PythonInfo, type Sandbox } from "../../../sandbox/index.ts";
import { runProbe } from "../../../runtime/spawn.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { buildTestProgram, sanitizeTest } from "./program.ts";

export const OUT_OF_CONTEXT = "_ran_out_of_context_";
/** Where the test data is bound inside the sandbox. */
const SANDBOX_H5 = "/data/test_data.h5";
export const MODULES = ["numpy", "scipy", "sympy", "h5py"];
export const APT_PACKAGES = "python3-numpy python3-scipy python3-sympy python3-h5py python3-matplotlib";

export interface ScicodeConfig extends JsonObject {
  num_processes: number;
  timeout_secs: number;
  test_data_fpath: string | null;
  sandbox: string | null;
  python: string;
}

interface State {
  limit: Semaphore;
  ready?: Promise<{ sandbox: Sandbox; python: PythonInfo }>;
}

/** The interpreter, checked to import SciCode's modules; else a GymError naming the Debian packages. */
export async function scientificPython(command: string): Promise<PythonInfo> {
  const python = await probePython(command);
  if (!python) throw new GymError("E_SANDBOX", `scicode runs the model's programs with ${command}, which does not run here.`, { hint: `Install Debian's Python and its packages (apt-get install python3 ${APT_PACKAGES}), or set the server's \`python\` key.` });
  const check = await runProbe([python.executable, "-c", `import ${MODULES.join(", ")}`]);
  if (check.exitCode !== 0) {
    throw new GymError("E_SANDBOX", `scicode's programs need ${MODULES.join(", ")}, and ${python.executable} cannot import them: ${check.stderr.trim().split("\n").at(-1)}`, { hint: `apt-get install ${APT_PACKAGES} (for /usr/bin/python3), or point the server's \`python\` key at an interpreter that has them.` });
  }
  return python;
}

/** The configured test data file (relative to the working directory), or NeMo Gym's refusal. */
function testData(config: ScicodeConfig): string {
  if (!config.test_data_fpath) throw new GymError("E_CONFIG", "scicode: test_data_fpath is not configured.", { hint: "Stage SciCode's test_data.h5 and set test_data_fpath (see src/components/benchmarks/scicode/README.md)." });
  const path = resolve(config.test_data_fpath.replace(/^~(?=\/|$)/, process.env.HOME ?? "~"));
  if (!existsSync(path) || !statSync(path).isFile()) throw new GymError("E_INPUT_NOT_FOUND", `scicode: SciCode test_data.h5 not found at ${path}.`, { hint: "Download and stage it (see src/components/benchmarks/scicode/README.md) before running." });
  return path;
}

/** A finite double as an exact fraction `num / 2^shift` (shift ≥ 0). */
function exact(x: number): [bigint, bigint] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n ? -1n : 1n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (biased === 0 ? 1 : biased) - 1075;
  return exponent >= 0 ? [sign * (mantissa << BigInt(exponent)), 0n] : [sign * mantissa, BigInt(-exponent)];
}

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

const bitLength = (n: bigint) => (n === 0n ? 0 : n.toString(2).length);
/** Python's `_integer_sqrt_of_frac_rto`: √(n/m) to an integer, rounded to odd. */
const sqrtRto = (n: bigint, m: bigint) => {
  const a = isqrt(n / m);
  return a * a * m !== n ? a | 1n : a;
};

/** `statistics.stdev` of ≥ 2 floats as Python computes it: the exact sample variance, its square root correctly rounded. */
export function stdev(values: number[]): number {
  const parts = values.map(exact);
  const shift = parts.reduce((m, [, s]) => (s > m ? s : m), 0n);
  const scaled = parts.map(([num, s]) => num << (shift - s));
  const n = BigInt(values.length);
  const total = scaled.reduce((a, b) => a + b, 0n);
  // Σ(x − mean)² / (n − 1) = Σ(n·aᵢ − S)² / (n² · 2^(2·shift) · (n − 1))
  const num = scaled.reduce((acc, a) => acc + (n * a - total) ** 2n, 0n);
  const den = n * n * (n - 1n) << (2n * shift);
  if (num === 0n) return 0;
  const q = Math.floor((bitLength(num) - bitLength(den) - 109) / 2);
  const [top, bottom] = q >= 0 ? [sqrtRto(num, den << BigInt(2 * q)) << BigInt(q), 1n] : [sqrtRto(num << BigInt(-2 * q), den), 1n << BigInt(-q)];
  return bigRatio(top, bottom);
}

/** The across-run spread of the headline numbers (repeat i of every problem is run i); nothing for one repeat. */
export function acrossRunStats(tasks: JsonObject[][]): JsonObject {
  const nonEmpty = tasks.filter((t) => t.length);
  const maxK = nonEmpty.length ? Math.min(...nonEmpty.map((t) => t.length)) : 0;
  if (maxK < 2) return {};
  const rows = tasks.filter((t) => t.length >= maxK).map((t) => [...t].sort((a, b) => Number(a._ng_rollout_index ?? 0) - Number(b._ng_rollout_index ?? 0)).slice(0, maxK));
  const problemRuns: number[] = [];
  const subtaskRuns: number[] = [];
  for (let i = 0; i < maxK; i++) {
    const acc = rows.filter((r) => r[i]!.problem_accuracy !== null && r[i]!.problem_accuracy !== undefined).map((r) => Number(r[i]!.problem_accuracy));
    if (acc.length) problemRuns.push(acc.reduce((a, b) => a + b, 0) / acc.length);
    const passed = rows.reduce((s, r) => s + Number(r[i]!.num_steps_passed ?? 0), 0);
    const total = rows.reduce((s, r) => s + Number(r[i]!.num_steps_total ?? 0), 0);
    if (total) subtaskRuns.push(passed / total);
  }
  const out: JsonObject = {};
  for (const [key, runs] of [["mean/problem_accuracy", problemRuns], ["subtask_accuracy", subtaskRuns]] as const) {
    if (runs.length < 2) continue;
    out[`${key}/std_dev_across_runs`] = pyFloat(runs.every((v) => v === runs[0]) ? 0 : stdev(runs));
  }
  return out;
}

export default defineResourcesServer<ScicodeConfig, State>({
  name: "scicode",
  className: "ScicodeResourcesServer",
  config: {
    fields: {
      num_processes: py.withDefault(py.int(), () => 20),
      timeout_secs: py.withDefault(py.float(), () => 30.0),
      test_data_fpath: py.optional(py.str()),
      sandbox: py.optional(py.str()),
      python: py.withDefault(py.str(), () => "/usr/bin/python3"),
    },
  },
  createState: (config) => ({ limit: new Semaphore(Math.max(1, config.num_processes)) }),
  verify: {
    request: {
      fields: { problem_id: py.str(), sub_steps: py.list(py.dict()), solutions: py.optional(py.dict()) },
      extra: "allow",
    },
    response: ["problem_id", "step_results", "num_steps_passed", "num_steps_total", "problem_accuracy", "subtask_accuracy"],
    async handler(body, { config, state }) {
      const problemId = body.problem_id as string;
      const subSteps = body.sub_steps as JsonObject[];
      const solutions = (body.solutions ?? {}) as Record<string, unknown>;
      const scored = subSteps.map((_, i) => i).filter((i) => `${problemId}.${i + 1}` in solutions);
      if (!scored.length) return { reward: 0, problem_id: problemId, step_results: [], num_steps_passed: 0, num_steps_total: 0, problem_accuracy: false, subtask_accuracy: pyFloat(0) };
      const h5 = testData(config);
      state.ready ??= (async () => ({ sandbox: await openSandbox(sandboxMode(config.sandbox), "scicode"), python: await scientificPython(config.python) }))();
      const { sandbox, python } = await state.ready;
      const inside = sandbox.mode === "unsafe_no_sandbox" ? h5 : SANDBOX_H5;
      const runStep = async (i: number): Promise<boolean> => {
        const code = solutions[`${problemId}.${i + 1}`];
        if (!code || code === OUT_OF_CONTEXT) return false;
        const step = subSteps[i]!;
        const tests = ((step.test_cases as string[] | undefined) ?? []).map(sanitizeTest);
        const program = buildTestProgram(String(code), inside, String(step.step_number), tests);
        await state.limit.acquire();
        try {
          const run = await sandbox.run({
            argv: [python.executable, "-c", program],
            readOnlyRoots: python.roots,
            binds: [{ host: h5, path: SANDBOX_H5 }],
            env: { PYTHONDONTWRITEBYTECODE: "1", MPLBACKEND: "Agg" },
            limits: { wallSeconds: config.timeout_secs, cpuSeconds: config.timeout_secs },
          });
          return run.exitCode === 0 && run.limit === null;
        } finally {
          state.limit.release();
        }
      };
      const stepResults = await Promise.all(scored.map(runStep));
      const passed = stepResults.filter(Boolean).length;
      const all = passed === scored.length;
      return { reward: all ? 1 : 0, problem_id: problemId, step_results: stepResults, num_steps_passed: passed, num_steps_total: scored.length, problem_accuracy: all, subtask_accuracy: pyFloat(passed / scored.length) };
    },
  },
  // NeMo Gym computes these on its scicode_agent (whose /aggregate_metrics runs there); ours forwards to this server.
  computeMetrics(tasks) {
    const rows = tasks.flat();
    const passed = rows.reduce((s, r) => s + Number(r.num_steps_passed ?? 0), 0);
    const total = rows.reduce((s, r) => s + Number(r.num_steps_total ?? 0), 0);
    return { subtask_accuracy: pyFloat(total ? passed / total : 0), ...acrossRunStats(tasks) };
  },
  keyMetrics: (m) => Object.fromEntries(Object.entries(m).filter(([k]) => k.startsWith("mean/") || k.startsWith("subtask_accuracy"))),
});
