import { describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, readFileSync, renameSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { indexedOutcomes, OutcomeIndexWriter } from "./outcome-index.ts";

const row = (task: number, rollout: number, attempt?: number, pad = "") => ({ _ng_task_index: task, _ng_rollout_index: rollout, ...(attempt === undefined ? {} : { _ng_attempt_index: attempt }), response: { text: `answer ${pad}` } });
const line = (r: object) => `${JSON.stringify(r)}\n`;

/** A run's files: the rows appended one by one with the index writer beside them, as `gym eval run` does. */
async function written(rows: object[]) {
  const dir = mkdtempSync(join(tmpdir(), "gym-outcome-index-"));
  const rollouts = join(dir, "r.jsonl");
  const index = join(dir, "r_outcomes.idx");
  writeFileSync(rollouts, "");
  const writer = OutcomeIndexWriter.open(index, rollouts)!;
  expect(writer).toBeDefined();
  for (const r of rows) {
    appendFileSync(rollouts, line(r));
    writer.add(r as Record<string, unknown>, Buffer.byteLength(line(r)));
  }
  writer.close();
  return { rollouts, index };
}

const ids = (rows: { task: number; rollout: number; attempt: number }[] | undefined) => rows?.map((r) => `${r.task}-${r.rollout}@${r.attempt}`);
const many = (n: number, from = 0) => Array.from({ length: n }, (_, i) => row(from + Math.floor(i / 4), i % 4, i % 7 === 0 ? 1 : undefined, "é".repeat(i % 5)));

describe("the outcome index", () => {
  test("the writer's records give every row's identity and attempt; the writer reopens over a complete index", async () => {
    const { rollouts, index } = await written(many(1000));
    expect(statSync(index).size).toBe(32 * 1001);
    expect(ids(await indexedOutcomes(rollouts, index))).toEqual(many(1000).map((r) => `${r._ng_task_index}-${r._ng_rollout_index}@${r._ng_attempt_index ?? 0}`));
    expect(OutcomeIndexWriter.open(index, rollouts)).toBeDefined();
  });

  test("rows the index lagged behind (a kill between the two writes) and a torn record are scanned and added", async () => {
    const { rollouts, index } = await written(many(100));
    truncateSync(index, 32 * 90 + 5); // 89 whole records, a torn one
    for (const r of many(3, 500)) appendFileSync(rollouts, line(r)); // never indexed
    const expected = [...many(100), ...many(3, 500)].map((r) => `${r._ng_task_index}-${r._ng_rollout_index}@${r._ng_attempt_index ?? 0}`);
    expect(ids(await indexedOutcomes(rollouts, index))).toEqual(expected);
    expect(statSync(index).size).toBe(32 * 104); // repaired to cover the file
    expect(ids(await indexedOutcomes(rollouts, index))).toEqual(expected);
  });

  test("records past the file's end (a cut rollouts file) are dropped, not believed", async () => {
    const { rollouts, index } = await written(many(40));
    const text = readFileSync(rollouts, "utf8");
    const kept = text.split("\n").slice(0, 30).join("\n") + "\n";
    truncateSync(rollouts, Buffer.byteLength(kept));
    expect(ids(await indexedOutcomes(rollouts, index))?.length).toBe(30);
  });

  test("another file at the path (new inode), or the same file rewritten in place with other rows: rebuilt from the rows", async () => {
    const { rollouts, index } = await written(many(200));
    const other = many(200, 1000);
    writeFileSync(`${rollouts}.new`, other.map(line).join(""));
    renameSync(`${rollouts}.new`, rollouts);
    const expected = other.map((r) => `${r._ng_task_index}-${r._ng_rollout_index}@${r._ng_attempt_index ?? 0}`);
    expect(ids(await indexedOutcomes(rollouts, index))).toEqual(expected);
    // In place (same inode), rows of other lengths and identities.
    const third = many(150, 5000).map((r, i) => ({ ...r, pad: "x".repeat(i % 13) }));
    writeFileSync(rollouts, third.map(line).join(""));
    expect(ids(await indexedOutcomes(rollouts, index))).toEqual(third.map((r) => `${r._ng_task_index}-${r._ng_rollout_index}@${r._ng_attempt_index ?? 0}`));
  });

  test("a row the index cannot hold (a string index): no index, the caller reads the rows", async () => {
    const { rollouts, index } = await written(many(10));
    appendFileSync(rollouts, line({ _ng_task_index: "7", _ng_rollout_index: 0 }));
    expect(await indexedOutcomes(rollouts, index)).toBeUndefined();
    expect(OutcomeIndexWriter.open(index, rollouts)).toBeUndefined();
  });
});
