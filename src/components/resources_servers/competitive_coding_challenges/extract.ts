/** What NeMo Gym's CCC evaluator does to the answer before compiling it. */
type Obj = Record<string, any>;

/** The body of the last ```<lang> block (any of `langs`, case-insensitive, newline after the tag); else the whole text. */
export function extractFinalCodeBlock(text: string, langs: readonly string[]): string {
  const escaped = langs.map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  const pattern = new RegExp("```(?:" + escaped + ")\\s*\\n([\\s\\S]*?)```", "gi");
  let last: string | undefined;
  for (const match of text.matchAll(pattern)) last = match[1];
  return last ?? text ?? "";
}

/** `graders/grader_config.json` of the problem's grader files, parsed ({} when absent or not JSON). */
export function taskConfig(graderFiles: [string, string][]): Obj {
  for (const [path, content] of graderFiles) {
    if (path !== "graders/grader_config.json") continue;
    try {
      const parsed = JSON.parse(content);
      return typeof parsed === "object" && parsed !== null ? parsed : {};
    } catch {
      return {};
    }
  }
  return {};
}

/** `#include <bits/stdc++.h>`, the problem's header, `using namespace std;` unless std is named; IOI'24 triples' missing half stubbed. */
export function addIncludes(code: string, headerInclude: string | null | undefined, problemId: string): string {
  if (!code) return code;
  let header = "#include <bits/stdc++.h>\n";
  if (headerInclude) {
    const line = `#include "${headerInclude}"`;
    if (!code.includes(line)) header += line + "\n";
  }
  if (!code.includes("using namespace std;") && !code.includes("std::")) header += "\nusing namespace std;\n\n";
  let dummy = "";
  if (problemId === "triples") {
    const hasCount = /\bcount_triples\s*\(/.test(code);
    const hasConstruct = /\bconstruct_range\s*\(/.test(code);
    if (hasConstruct && !hasCount) dummy += "long long count_triples(std::vector<int> H){return 0LL;}\n";
    else if (hasCount && !hasConstruct) dummy += "std::vector<int> construct_range(int M,int K){return {};}\n";
  }
  return header + code + (dummy ? "\n" + dummy : code.endsWith("\n") ? "" : "\n");
}

/** Some run scripts hold FIFOs open: a `kill "$user_pid"` goes before each `wait "$user_pid"` not already preceded by one. */
export function patchRunScript(run: string): string {
  return run.replace(/([ \t]*)wait "\$user_pid"/g, (match, indent: string, offset: number) => {
    if (run.slice(Math.max(0, offset - 60), offset).includes("kill")) return match;
    return `${indent}kill "$user_pid" 2>/dev/null || true\n${match}`;
  });
}

/** The code to compile, by the problem's task type (Batch and the default: the last ```cpp block plus includes). */
export function solutionCode(generation: string, graderFiles: [string, string][], headerInclude: string | null | undefined, problemId: string): { code: string; taskType: string } {
  const config = taskConfig(graderFiles);
  // Python's str(config.get("task_type", "Batch")): a null task type is "None" (compiled as Batch).
  const taskType = !("task_type" in config) ? "Batch" : config.task_type === null ? "None" : String(config.task_type);
  if (taskType === "SIMULATION") return { code: extractFinalCodeBlock(generation, ["txt", "text", "plain"]), taskType };
  if (taskType === "MULTIFILE") return { code: extractFinalCodeBlock(generation, ["cpp"]), taskType };
  return { code: addIncludes(extractFinalCodeBlock(generation, ["cpp"]), headerInclude, problemId), taskType };
}
