/** The built-in benchmarks' prepare steps, by their `prepare_script` path, so the compiled binary carries them. */
import type { PrepareFn } from "./_prepare.ts";

export type { PrepareContext, PrepareFn } from "./_prepare.ts";

/** `prepare_script` value → loader of its module. */
export const builtinPrepareScripts: Record<string, () => Promise<{ prepare: PrepareFn }>> = {
  "benchmarks/arithmetic/prepare.ts": () => import("./arithmetic/prepare.ts"),
  "benchmarks/gpqa/prepare.ts": () => import("./gpqa/prepare.ts"),
  "benchmarks/xstest/prepare.ts": () => import("./xstest/prepare.ts"),
  "benchmarks/livecodebench/v5_2408_2502/prepare.ts": () => import("./livecodebench/v5_2408_2502/prepare.ts"),
  "benchmarks/livecodebench/v6_2408_2505/prepare.ts": () => import("./livecodebench/v6_2408_2505/prepare.ts"),
  "benchmarks/livecodebench-x/prepare.ts": () => import("./livecodebench-x/prepare.ts"),
  "benchmarks/ifbench/prepare.ts": () => import("./ifbench/prepare.ts"),
  "benchmarks/ifeval/prepare.ts": () => import("./ifeval/prepare.ts"),
};
