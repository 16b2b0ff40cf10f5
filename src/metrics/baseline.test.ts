import { describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { computeAggregateMetrics, type AggregateHooks } from "./baseline.ts";
import { fixtureNames, fixturePath, readFixtureRows } from "./_fixtures.ts";
import { parsePythonJson, stringifyPython } from "./pyjson.ts";
import { stripForAggregate } from "./records.ts";

type Row = Record<string, unknown>;

/** What NeMo Gym 0.5 posted per agent: stripped rows grouped by agent (from the row, else its materialized input). */
function requestsByAgent(name: string): Map<string, Row[]> {
  const rows = readFixtureRows(name, "example_rollouts.jsonl");
  const inputsFile = fixturePath(name, "example_rollouts_materialized_inputs.jsonl");
  const inputAgent = new Map<string, string>();
  if (fs.existsSync(inputsFile)) {
    for (const r of readFixtureRows(name, "example_rollouts_materialized_inputs.jsonl")) {
      inputAgent.set(`${r._ng_task_index}:${r._ng_rollout_index}`, (r.agent_ref as Row).name as string);
    }
  }
  const byAgent = new Map<string, Row[]>();
  for (const r of rows) {
    const agent = ((r.agent_ref as Row | undefined)?.name as string) ?? inputAgent.get(`${r._ng_task_index}:${r._ng_rollout_index}`);
    if (!byAgent.has(agent)) byAgent.set(agent, []);
    byAgent.get(agent)!.push(stripForAggregate(r));
  }
  return byAgent;
}

function fileEntries(name: string, hooks?: AggregateHooks) {
  return [...requestsByAgent(name)].map(([agent, rows]) => ({ agent_ref: { name: agent }, ...computeAggregateMetrics(rows, { repeatLevel: false, hooks }) }));
}

const STAT = /^(mean|max|min|median|std)\//;
/** The baseline statistics of a metrics object, printed Python-style, in order. */
function statsOf(obj: Row): string[] {
  return Object.entries(obj)
    .filter(([k]) => STAT.test(k))
    .map(([k, v]) => `${k}=${stringifyPython(v)}`);
}

// Files written by the current NeMo Gym layout: the whole file must come out byte for byte.
const CURRENT_LAYOUT = ["blackjack", "example_multi_turn_gymnasium", "grl_sokoban", "grl_tetris", "tales"];
// Written by an earlier NeMo Gym (group rows end with `sample`, `_ng_task_index`, no counts): numbers only.
const OLD_LAYOUT = ["asr_with_pc", "finance_sec_search", "proof_genselect"];

describe("aggregate metrics reproduce NeMo Gym's published files", () => {
  test("every fixture with an aggregate file is covered", () => {
    expect(fixtureNames("example_rollouts_aggregate_metrics.json")).toEqual([...CURRENT_LAYOUT, ...OLD_LAYOUT, "litmus_agent"].sort());
  });

  for (const name of CURRENT_LAYOUT) {
    test(`${name}: byte-identical _aggregate_metrics.json`, () => {
      const want = fs.readFileSync(fixturePath(name, "example_rollouts_aggregate_metrics.json"), "utf8");
      expect(stringifyPython(fileEntries(name), { indent: 2 })).toBe(want);
    });
  }

  test("litmus_agent: byte-identical except its server's own `direct` block and key-metric choice", () => {
    const want = parsePythonJson(fs.readFileSync(fixturePath("litmus_agent", "example_rollouts_aggregate_metrics.json"), "utf8")) as Row[];
    // Server-specific extras, supplied here through the hooks as litmus' server would.
    const direct = (want[0]!.agent_metrics as Row).direct;
    const got = fileEntries("litmus_agent", {
      computeMetrics: () => ({ direct }),
      getKeyMetrics: (am: Row) => ({ "mean/reward": am["mean/reward"], "mean/correct": am["mean/correct"] }),
    });
    expect(stringifyPython(got, { indent: 2 })).toBe(stringifyPython(want, { indent: 2 }));
  });

  for (const name of OLD_LAYOUT) {
    test(`${name}: every baseline number, in order (older file layout)`, () => {
      const want = parsePythonJson(fs.readFileSync(fixturePath(name, "example_rollouts_aggregate_metrics.json"), "utf8")) as Row[];
      const got = fileEntries(name);
      expect(got.map((e) => e.agent_ref.name)).toEqual(want.map((e) => (e.agent_ref as Row).name as string));
      for (let i = 0; i < want.length; i++) {
        expect(statsOf(got[i]!.agent_metrics)).toEqual(statsOf(want[i]!.agent_metrics as Row));
        const wantGroups = want[i]!.group_level_metrics as Row[];
        expect(got[i]!.group_level_metrics.length).toBe(wantGroups.length);
        wantGroups.forEach((g, j) => {
          expect(statsOf(got[i]!.group_level_metrics[j]!)).toEqual(statsOf(g));
          expect(got[i]!.group_level_metrics[j]!._ng_task_index).toBe(g._ng_task_index);
        });
      }
    });
  }
});
