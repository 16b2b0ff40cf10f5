/** The built-in benchmarks' prepare steps, by their `prepare_script` path, so the compiled binary carries them. */
import type { PrepareFn } from "./_prepare.ts";

export type { PrepareContext, PrepareFn } from "./_prepare.ts";

/** `prepare_script` value → loader of its module. */
export const builtinPrepareScripts: Record<string, () => Promise<{ prepare: PrepareFn }>> = {
  "benchmarks/arithmetic/prepare.ts": () => import("./arithmetic/prepare.ts"),
  "benchmarks/gpqa/prepare.ts": () => import("./gpqa/prepare.ts"),
  "benchmarks/xstest/prepare.ts": () => import("./xstest/prepare.ts"),
  "benchmarks/simpleqa/prepare.ts": () => import("./simpleqa/prepare.ts"),
  "benchmarks/hle/prepare.ts": () => import("./hle/prepare.ts"),
  "benchmarks/frontierscience_olympiad/prepare.ts": () => import("./frontierscience_olympiad/prepare.ts"),
  "benchmarks/financebench/prepare.ts": () => import("./financebench/prepare.ts"),
  "benchmarks/secque/prepare.ts": () => import("./secque/prepare.ts"),
  "benchmarks/answer-judge/prepare.ts": () => import("./answer-judge/prepare.ts"),
  "benchmarks/arena_hard/prepare.ts": () => import("./arena_hard/prepare.ts"),
  "benchmarks/arena_hard_v2/prepare.ts": () => import("./arena_hard_v2/prepare.ts"),
  "benchmarks/m_arena_hard/prepare.ts": () => import("./m_arena_hard/prepare.ts"),
  "benchmarks/m_arena_hard_v2/prepare.ts": () => import("./m_arena_hard_v2/prepare.ts"),
  "benchmarks/human_eval/prepare.ts": () => import("./human_eval/prepare.ts"),
  "benchmarks/mbpp/prepare.ts": () => import("./mbpp/prepare.ts"),
  "benchmarks/human_eval_infilling/prepare.ts": () => import("./human_eval_infilling/prepare.ts"),
  "benchmarks/ioi/prepare.ts": () => import("./ioi/prepare.ts"),
  "benchmarks/livecodebench/v5_2408_2502/prepare.ts": () => import("./livecodebench/v5_2408_2502/prepare.ts"),
  "benchmarks/livecodebench/v6_2408_2505/prepare.ts": () => import("./livecodebench/v6_2408_2505/prepare.ts"),
  "benchmarks/livecodebench-x/prepare.ts": () => import("./livecodebench-x/prepare.ts"),
  "benchmarks/ifbench/prepare.ts": () => import("./ifbench/prepare.ts"),
  "benchmarks/ifeval/prepare.ts": () => import("./ifeval/prepare.ts"),
  "benchmarks/aime24/prepare.ts": () => import("./aime24/prepare.ts"),
  "benchmarks/aime25/prepare.ts": () => import("./aime25/prepare.ts"),
  "benchmarks/aime26/prepare.ts": () => import("./aime26/prepare.ts"),
  "benchmarks/apex_shortlist/prepare.ts": () => import("./apex_shortlist/prepare.ts"),
  "benchmarks/gsm8k/prepare.ts": () => import("./gsm8k/prepare.ts"),
  "benchmarks/hendrycks_math/prepare.ts": () => import("./hendrycks_math/prepare.ts"),
  "benchmarks/hmmt_feb25/prepare.ts": () => import("./hmmt_feb25/prepare.ts"),
  "benchmarks/hmmt_nov25/prepare.ts": () => import("./hmmt_nov25/prepare.ts"),
  "benchmarks/math-500/prepare.ts": () => import("./math-500/prepare.ts"),
};
