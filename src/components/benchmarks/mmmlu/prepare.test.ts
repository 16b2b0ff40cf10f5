import { expect, test } from "bun:test";
import { mmmluLine } from "./prepare.ts";
import { readCsvIndexed } from "./pandas-csv.ts";

test("float64 cells: str() in the question and json.dumps in the options, non-finite values as Python spells them", () => {
  // Column A: ints with a NaN (float64, so 1 is 1.0); B: floats with inf; C: all NaN; D: strings.
  const csv = ",Question,A,B,C,D,Answer,Subject\n0,Q1,1,inf,,x,A,astronomy\n1,Q2,,-2.5,,y,B,astronomy\n";
  const [first, second] = readCsvIndexed(csv, "test.csv").map((entry) => mmmluLine(entry, "DE-DE"));
  // json.dumps([{"A": 1.0}, {"B": float("inf")}, {"C": float("nan")}, {"D": "x"}]) and str() of the same cells.
  expect(first).toContain('"options": [{"A": 1.0}, {"B": Infinity}, {"C": NaN}, {"D": "x"}]');
  expect(first).toContain("A) 1.0\\nB) inf\\nC) nan\\nD) x");
  expect(second).toContain('"options": [{"A": NaN}, {"B": -2.5}, {"C": NaN}, {"D": "y"}]');
});
