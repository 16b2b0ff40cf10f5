/** The exit code of `gym eval run` (collection.md §4.6): 0, 1, 75 (incomplete, retry helps) or 76 (incomplete, it won't). */
import { EXIT } from "../errors.ts";
import { eligibility, type Outcome } from "../outputs/store.ts";

export interface CompletionInput {
  expected: string[];
  store: Map<string, Outcome>;
  maxAttempts: number;
  requireComplete: boolean;
  /** New successes, omissions, terminal or counted failures in this invocation. */
  progressed: boolean;
  /** Something was scored, counted as zero or imputed. */
  anythingScored: boolean;
}

export function decideExitCode(input: CompletionInput): number {
  if (!input.requireComplete) return input.anythingScored ? EXIT.ok : EXIT.failure;
  const gaps = input.expected.filter((id) => input.store.get(id)?.kind !== "success");
  if (gaps.length === 0) return EXIT.ok;
  const anySucceeded = gaps.length < input.expected.length;
  if (gaps.every((id) => input.store.get(id)?.kind === "omitted")) return anySucceeded ? EXIT.ok : EXIT.incompleteTerminal;
  const eligible = gaps.some((id) => ["run", "retry", "replay"].includes(eligibility(input.store.get(id), input.maxAttempts)));
  if (eligible) return input.progressed ? EXIT.incompleteRetryable : EXIT.failure;
  return EXIT.incompleteTerminal;
}
