/** "NeMo Gym's, not part of this build": what gym says of a name NeMo Gym ships and this build does not. */
import { NEMO_GYM_COMMIT, NEMO_GYM_NAMES } from "./nemo-gym-names.ts";

const KIND_WORDS: Record<string, string> = {
  benchmark: "benchmark",
  environment: "environment",
  "resources-server": "resources server",
  "agent-type": "agent",
  "model-type": "model server",
  sandbox: "sandbox provider",
};

/** A sentence for a NeMo Gym name that this build lacks (kind: a selector kind or `sandbox`), or undefined. */
export function nemoGymOnly(kind: string, name: string): string | undefined {
  const names = NEMO_GYM_NAMES[kind];
  if (!names || !Object.hasOwn(names, name)) return undefined;
  const release = names[name];
  const since = release ? `NeMo Gym ${release} and later have it` : `NeMo Gym has it since its last release: main at ${NEMO_GYM_COMMIT}`;
  return `'${name}' is NeMo Gym's ${KIND_WORDS[kind] ?? kind}, not part of this build (${since}).`;
}
