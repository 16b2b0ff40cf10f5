/**
 * The test metadata file (`test_file`): JSONL whose entries hold problems, each with its compile and run scripts,
 * grader files, subtasks and tests. Both of NeMo Gym's shapes are read: the normalized one (`subtasks` +
 * `all_tests`) and the legacy subtask-keyed one (`{subtask: {tests, subtask_score, score_precision, compile, run,
 * grader_files}}`, what `gym eval prepare --benchmark ioi` writes); each line wraps one competition's problems
 * (`{competition_id, metadata}` or `{competition, problems}`).
 */
import { existsSync, readFileSync } from "node:fs";
import { GymError } from "../../../errors.ts";

type Obj = Record<string, any>;

export interface Subtask {
  aggregation: "min" | "sum_tests" | string;
  score: number;
  score_precision: number;
  test_names: string[];
}

export interface Problem {
  name: string;
  compile: string;
  run: string;
  /** [relative path, content] pairs. */
  grader_files: [string, string][];
  subtasks: Record<string, Subtask>;
  all_tests: Record<string, { input: string; output: string; group?: string }>;
  problem_header_include?: string;
}

const isObj = (x: unknown): x is Obj => typeof x === "object" && x !== null && !Array.isArray(x);


/** NeMo Gym's `_normalize_problem_metadata`: the legacy shape → `subtasks` + `all_tests` (tests named sample* are samples). */
export function normalizeProblem(problemId: string, raw: Obj): Problem {
  if ("subtasks" in raw && "all_tests" in raw) return raw as Problem;
  const subtasks: Record<string, Subtask> = {};
  const tests: Problem["all_tests"] = {};
  let compile = "";
  let run = "";
  let graderFiles: [string, string][] = [];
  for (const [name, sub] of Object.entries(raw)) {
    if (!isObj(sub)) continue;
    compile ||= sub.compile ?? "";
    run ||= sub.run ?? "";
    if (!graderFiles.length) graderFiles = sub.grader_files ?? [];
    const names: string[] = [];
    for (const [testName, data] of Object.entries((sub.tests ?? {}) as Obj)) {
      names.push(testName);
      tests[testName] ??= { input: data.input, output: data.output, group: testName.startsWith("sample") ? "sample" : "secret" };
    }
    subtasks[name] = { aggregation: "min", score: Number(sub.score || sub.subtask_score || 0), score_precision: Math.trunc(Number(sub.score_precision ?? 0)), test_names: names };
  }
  return { name: typeof raw.name === "string" ? raw.name : problemId, compile, run, grader_files: graderFiles, subtasks, all_tests: tests };
}

export class ProblemIndex {
  /** competition id ("" for none) → problem id → problem. */
  readonly byCompetition = new Map<string, Map<string, Problem>>();
  /** problem id → competition id → problem. */
  readonly byProblem = new Map<string, Map<string, Problem>>();

  add(competitionId: string, problemId: string, problem: Problem): void {
    let problems = this.byCompetition.get(competitionId);
    if (!problems) this.byCompetition.set(competitionId, (problems = new Map()));
    problems.set(problemId, problem);
    let where = this.byProblem.get(problemId);
    if (!where) this.byProblem.set(problemId, (where = new Map()));
    where.set(competitionId, problem);
  }

  /** NeMo Gym's `get_problem_metadata`, with its messages (Python's list repr for the alternatives). */
  get(problemId: string, competitionId: string | null): Problem {
    if (competitionId) {
      const problems = this.byCompetition.get(competitionId);
      if (!problems) throw new Error(`Competition '${competitionId}' not found for problem '${problemId}'. Available competitions: ${pyList([...this.byCompetition.keys()].filter(Boolean))}`);
      const problem = problems.get(problemId);
      if (!problem) throw new Error(`Problem '${problemId}' not found in competition '${competitionId}'. Available problems: ${pyList([...problems.keys()])}`);
      return problem;
    }
    const matches = this.byProblem.get(problemId);
    if (matches?.size === 1) return matches.values().next().value!;
    if (!matches?.size) throw new Error(`Problem '${problemId}' not found in metadata.`);
    throw new Error(`Problem '${problemId}' exists in multiple competitions; please provide competition_id. Available competitions: ${pyList([...matches.keys()].filter(Boolean))}`);
  }
}

const pyList = (items: string[]) => `[${[...items].sort().map((s) => `'${s}'`).join(", ")}]`;

/** Reads and indexes the metadata file (NeMo Gym's `_load_metadata_file`). */
export function loadMetadata(path: string): ProblemIndex {
  if (!existsSync(path)) throw new GymError("E_INPUT_NOT_FOUND", `Metadata file ${path} does not exist.`, { hint: "set the server's test_file (CCC_TEST_FILE), or run `gym eval prepare --benchmark ioi`" });
  const lines = readFileSync(path, "utf8").split("\n");
  const raw: unknown[] = [];
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    try {
      raw.push(JSON.parse(line));
    } catch (error) {
      throw new GymError("E_INPUT_JSON", `${path}:${i + 1}: not JSON (${(error as Error).message})`);
    }
  });
  const index = new ProblemIndex();
  // NeMo Gym reads the file as a list of lines, so each line is one entry: `{competition_id | competition, metadata | problems}`.
  for (const entry of raw) {
    if (!isObj(entry)) continue;
    const competitionId = String(entry.competition_id || entry.competition || "");
    const problems = (entry.metadata || entry.problems || {}) as Obj;
    for (const [problemId, problem] of Object.entries(problems)) index.add(competitionId, problemId, normalizeProblem(problemId, problem));
  }
  return index;
}
