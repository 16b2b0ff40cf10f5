import { expect, test } from "bun:test";
import { joinOnKey } from "./join.ts";

async function* rows<T>(items: T[]) {
  yield* items;
}

test("joinOnKey pairs rows and reports what did not match", async () => {
  const inputs = [{ k: "0-0", x: 1 }, { k: "0-1", x: 2 }, { k: "0-1", x: 99 }, { k: "1-0", x: 3 }];
  const rollouts = [{ id: "0-1", r: 1 }, { id: "2-0", r: 0 }, { id: "0-0", r: 0.5 }];
  const dupes: string[] = [];
  const unmatchedRight: string[] = [];
  const unmatchedLeft: string[] = [];
  const out = [];
  for await (const pair of joinOnKey(rows(inputs), rows(rollouts), (r) => r.k, (r) => r.id, {
    onDuplicateLeft: (_, k) => dupes.push(k),
    onUnmatchedRight: (_, k) => unmatchedRight.push(k),
    onUnmatchedLeft: (_, k) => unmatchedLeft.push(k),
  })) out.push([pair.key, pair.left.x, pair.right.r]);
  expect(out).toEqual([["0-1", 2, 1], ["0-0", 1, 0.5]]);
  expect(dupes).toEqual(["0-1"]);
  expect(unmatchedRight).toEqual(["2-0"]);
  expect(unmatchedLeft).toEqual(["1-0"]);
});
