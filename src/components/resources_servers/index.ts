/** Built-in resources servers (the catalog index): implementation name → lazy module whose default export builds the app from its config block. */
import type { ServerCatalog } from "../../servers/registry.ts";

export const catalog: ServerCatalog = {
  mcqa: () => import("./mcqa/index.ts"),
  math_with_judge: () => import("./math_with_judge/index.ts"),
  code_gen: () => import("./code_gen/index.ts"),
  evalplus: () => import("./evalplus/index.ts"),
  code_fim: () => import("./code_fim/index.ts"),
  competitive_coding_challenges: () => import("./competitive_coding_challenges/index.ts"),
  instruction_following: () => import("./instruction_following/index.ts"),
  ifbench: () => import("./ifbench/index.ts"),
  string_match: () => import("./string_match/index.ts"),
  equivalence_rule: () => import("./equivalence_rule/index.ts"),
  format_verification: () => import("./format_verification/index.ts"),
  circle_click: () => import("./circle_click/index.ts"),
  example_single_tool_call: () => import("./example_single_tool_call/index.ts"),
  example_multi_step: () => import("./example_multi_step/index.ts"),
  example_tool_call_multireward: () => import("./example_tool_call_multireward/index.ts"),
  example_session_state_mgmt: () => import("./example_session_state_mgmt/index.ts"),
  example_multi_turn_gymnasium: () => import("./example_multi_turn_gymnasium/index.ts"),
  simpleqa: () => import("./simpleqa/index.ts"),
  equivalence_llm_judge: () => import("./equivalence_llm_judge/index.ts"),
  xstest: () => import("./xstest/index.ts"),
  math_proof_judgement: () => import("./math_proof_judgement/index.ts"),
  frontierscience_judge: () => import("./frontierscience_judge/index.ts"),
  arena_judge: () => import("./arena_judge/index.ts"),
};
