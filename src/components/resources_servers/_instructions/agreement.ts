/** Per-instruction agreement of a registry with upstream's recorded verdicts (strict and loose), for tests and the README. */
import { scoreInstructions } from "./score.ts";
import type { Registry } from "./types.ts";

export interface RecordedRow {
  instruction_id_list: string[];
  kwargs: unknown[];
  prompt: string;
  response: string;
  strict: boolean[];
  loose: boolean[];
}

export interface Agreement {
  id: string;
  cases: number;
  strict: number;
  loose: number;
}

/** Scores every recorded row and counts, per instruction id, how many verdicts match upstream's. */
export function agreementById(registry: Registry, rows: RecordedRow[], blankFailsAll: boolean): Agreement[] {
  const byId = new Map<string, Agreement>();
  for (const row of rows) {
    const scored = scoreInstructions(registry, row.instruction_id_list, row.kwargs, row.prompt, row.response, { base: [], blankFailsAll });
    row.instruction_id_list.forEach((id, i) => {
      const a = byId.get(id) ?? { id, cases: 0, strict: 0, loose: 0 };
      a.cases++;
      if (scored.strict[i] === row.strict[i]) a.strict++;
      if (scored.loose[i] === row.loose[i]) a.loose++;
      byId.set(id, a);
    });
  }
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}
