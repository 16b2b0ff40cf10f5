/** Test helpers: NeMo Gym's published example files under fixtures/metrics/, parsed the Python way. */
import * as fs from "node:fs";
import * as path from "node:path";
import { parsePythonJson } from "./pyjson.ts";

export const FIXTURES = path.resolve(import.meta.dir ?? path.dirname(new URL(import.meta.url).pathname), "../../fixtures/metrics");

export function fixturePath(name: string, file: string): string {
  return path.join(FIXTURES, name, file);
}

export function readFixtureRows(name: string, file: string): Array<Record<string, unknown>> {
  return fs
    .readFileSync(fixturePath(name, file), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => parsePythonJson(l) as Record<string, unknown>);
}

export function fixtureNames(withFile: string): string[] {
  return fs.readdirSync(FIXTURES).filter((n) => fs.existsSync(path.join(FIXTURES, n, withFile))).sort();
}
