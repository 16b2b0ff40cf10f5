import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toJsonLines } from "../jsonl/write.ts";
import { materialize, materializeRows } from "../stages/materialize.ts";
import { inputsUnchanged, passInputs, readInputRows, writeInputs } from "./inputs.ts";
import { materializedDigest } from "./prepare.ts";

function dataset(): string {
  const dir = mkdtempSync(join(tmpdir(), "gym-inputs-"));
  const path = join(dir, "in.jsonl");
  writeFileSync(path, ['{"q":1,"responses_create_params":{"input":"a"}}', "", '{"q":2,"responses_create_params":{"input":"é"}}', '{"q":1,"responses_create_params":{"input":"a"}}'].map((l) => `${l}\n`).join(""));
  return path;
}

describe("the materialized inputs file", () => {
  test("written from the streamed rows: the same bytes, digest and identities as from the whole list", async () => {
    const input = dataset();
    const options = { knownAgents: ["a"], numRepeats: 3 };
    const rows = await materialize(input, options);
    const target = join(mkdtempSync(join(tmpdir(), "gym-inputs-")), "m.jsonl");
    const written = await writeInputs(target, await materializeRows(input, options));
    expect(readFileSync(target, "utf8")).toBe(toJsonLines(rows));
    expect(written.digest).toBe(materializedDigest(rows));
    expect(written.ids).toEqual(rows.map((r) => `${r._ng_task_index}-${r._ng_rollout_index}`));
    expect(written.tasks).toBe(2);
    expect(written.file.sha256).toBe(createHash("sha256").update(readFileSync(target)).digest("hex"));
    expect((await passInputs(await materializeRows(input, options))).sha256).toBe(written.file.sha256);
    expect([...readInputRows(target)]).toEqual(JSON.parse(JSON.stringify(rows)));
  });

  test("a resume trusts the file while it keeps the recorded size and mtime, else only if its bytes hash the same", async () => {
    const input = dataset();
    const target = join(mkdtempSync(join(tmpdir(), "gym-inputs-")), "m.jsonl");
    const { file } = await writeInputs(target, await materializeRows(input, { knownAgents: ["a"], numRepeats: 2 }));
    expect(await inputsUnchanged(target, file)).toBe(true);
    // Touched, bytes unchanged: still the same file (its hash is checked).
    utimesSync(target, new Date(), new Date(Date.now() + 5000));
    expect(await inputsUnchanged(target, file)).toBe(true);
    // The same number of bytes, one changed (a new mtime): the hash says no.
    const text = readFileSync(target, "utf8").replace('"q":2', '"q":3');
    writeFileSync(target, text);
    expect(statSync(target).size).toBe(file.size);
    expect(await inputsUnchanged(target, file)).toBe(false);
    // Cut short: refused on the size alone.
    writeFileSync(target, text.slice(0, -10));
    expect(await inputsUnchanged(target, file)).toBe(false);
  });

  test("the input changing between the validating pass and the rows' pass is refused", async () => {
    const input = dataset();
    const set = await materializeRows(input, { knownAgents: ["a"] });
    writeFileSync(input, '{"q":9}\n');
    const drain = async () => {
      for await (const _ of set.rows());
    };
    await expect(drain()).rejects.toThrow(/changed while the run was reading it/);
  });
});
