/**
 * text_to_sql: an LLM judge of SQL equivalence (no database). The SQL is extracted from the answer (the last
 * ```sql block, else the last ``` block that starts with a statement keyword, else the text from the first
 * SELECT/INSERT/UPDATE/DELETE/WITH to the last `;`), then judged against the gold query with the prompt files
 * (`[[A=B]]` / `[[A!=B]]`, the first label found wins), and, when equal and `check_twice_swap`, once more with the
 * queries swapped.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { outputText } from "../_common/output.ts";
import { pyCompile, pyFindall } from "../_python/re.ts";
import { pyRstrip, pyStrip } from "../_python/text.ts";
import { Judge, judgeConfigFields, pyFormat, readPromptFile, type JudgeConfig, type JudgeExchange } from "../_judge/index.ts";

export interface TextToSqlConfig extends JudgeConfig {
  judge_system_message: string | null;
  judge_equal_label: string;
  judge_not_equal_label: string;
  check_twice_swap: boolean;
  reward_if_swap_fails: number;
}

const SQL_BLOCK = pyCompile(String.raw`` + "```sql\\s*([\\s\\S]*?)\\s*```", { ignoreCase: true });
const ANY_BLOCK = pyCompile("```\\s*([\\s\\S]*?)\\s*```");
const STATEMENT = pyCompile(String.raw`^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP)\s`, { ignoreCase: true });
const SQL_START = pyCompile(String.raw`(?:SELECT|INSERT|UPDATE|DELETE|WITH)\s`, { ignoreCase: true });

/** `extract_sql_from_response`: the SQL of an answer, or null when there is none. */
export function extractSql(text: string): string | null {
  if (!text) return null;
  const sqlBlocks = pyFindall(SQL_BLOCK, text) as string[];
  if (sqlBlocks.length) return pyStrip(sqlBlocks.at(-1)!);
  for (const block of (pyFindall(ANY_BLOCK, text) as string[]).reverse()) {
    const content = pyStrip(block);
    if (STATEMENT.search.exec(content)) return content;
  }
  const start = SQL_START.search.exec(text);
  if (!start) return null;
  const lastSemicolon = text.lastIndexOf(";");
  const extracted = pyStrip(lastSemicolon >= start.index ? text.slice(start.index, lastSemicolon + 1) : text.slice(start.index));
  return `${pyRstrip(extracted, ";")};`;
}

const ALIASES: Record<string, string> = { postgres: "postgresql", pg: "postgresql", sqlite3: "sqlite" };
const DIALECTS = ["mysql", "postgresql", "sqlite"];

/** The judge's text: every assistant message's non-empty stripped parts, joined by "\n". */
export function judgeText(response: JsonObject): string {
  const texts: string[] = [];
  for (const item of (Array.isArray(response.output) ? response.output : []) as JsonObject[]) {
    if (item.type !== "message" || (item.role !== undefined && item.role !== null && item.role !== "assistant")) continue;
    if (Array.isArray(item.content)) {
      const parts = (item.content as JsonObject[]).map((c) => c?.text).filter((t): t is string => typeof t === "string" && pyStrip(t) !== "").map((t) => pyStrip(t));
      if (parts.length) texts.push(parts.join("\n"));
    } else if (typeof item.content === "string" && pyStrip(item.content)) texts.push(pyStrip(item.content));
  }
  return pyStrip(texts.join("\n"));
}

interface Prompts {
  system: string;
  user: string;
}

interface State {
  judge: Judge;
  prompts?: Promise<Prompts>;
}

async function evaluate(state: State, config: TextToSqlConfig, values: Record<string, string>): Promise<[boolean, JsonObject]> {
  state.prompts ??= Promise.all([readPromptFile("prompts/judge_system.txt", "text_to_sql", "judge_system_message"), readPromptFile("prompts/judge_user.txt", "text_to_sql", "prompt")]).then(([system, user]) => ({ system, user }));
  const prompts = await state.prompts;
  const system = config.judge_system_message === undefined ? prompts.system : config.judge_system_message;
  const input: JsonObject[] = system ? [{ role: "system", content: system }] : [];
  input.push({ role: "user", content: pyFormat(prompts.user, values) });
  const exchange: JudgeExchange = await state.judge.responses(input);
  const text = judgeText(exchange.response);
  let label: string | null = null;
  let equal = false;
  if (text) {
    const eq = text.indexOf(config.judge_equal_label);
    const neq = text.indexOf(config.judge_not_equal_label);
    if (eq >= 0 && (neq < 0 || eq < neq)) [label, equal] = [config.judge_equal_label, true];
    else if (neq >= 0) label = config.judge_not_equal_label;
  }
  return [equal, { ...exchange, verdict_label: label }];
}

export default defineResourcesServer<TextToSqlConfig, State>({
  name: "text_to_sql",
  className: "TextToSqlResourcesServer",
  config: {
    fields: {
      ...judgeConfigFields(),
      judge_system_message: py.optional(py.str(), () => undefined),
      judge_equal_label: py.withDefault(py.str(), () => "[[A=B]]"),
      judge_not_equal_label: py.withDefault(py.str(), () => "[[A!=B]]"),
      check_twice_swap: py.withDefault(py.bool(), () => true),
      reward_if_swap_fails: py.withDefault(py.float(), () => 0.0),
    },
  },
  createState: (config, { servers }) => ({ judge: new Judge(config, servers) }),
  verify: {
    request: {
      fields: { uuid: py.optional(py.any()), sql: py.str(), sql_dialect: py.str(), sql_context: py.withDefault(py.str(), () => ""), sql_prompt: py.str(), metadata: py.optional(py.dict()) },
      extra: "allow",
    },
    response: ["uuid", "sql", "model_output", "extracted_sql", "sql_dialect", "sql_context", "sql_prompt", "judge_passed", "failure_reason", "judge_evaluations", "metadata"],
    async handler(body, { config, state }) {
      const raw = pyStrip(String(body.sql_dialect)).toLowerCase();
      const dialect = ALIASES[raw] ?? raw;
      if (!dialect) throw new Error("ValueError: SQL dialect is required but was not provided");
      if (!DIALECTS.includes(dialect)) throw new Error(`ValueError: Unsupported SQL dialect '${dialect}'. Supported: ['mysql', 'postgresql', 'sqlite']`);
      const expected = body.sql as string;
      const generated = outputText(body.response as JsonObject);
      const base = { sql: expected, sql_dialect: dialect, sql_context: body.sql_context, sql_prompt: body.sql_prompt };
      if (!generated) return { reward: 0.0, ...base, model_output: "", extracted_sql: null, judge_passed: false, failure_reason: "no_sql_extracted", judge_evaluations: [] };
      const extracted = extractSql(generated);
      const evaluations: JsonObject[] = [];
      let reward = 0.0;
      let passed = false;
      let failure: string;
      if (!extracted) failure = "no_sql_extracted";
      else {
        const values = { sql_prompt: body.sql_prompt as string, sql_context: body.sql_context as string, sql_dialect: dialect };
        const [firstEqual, first] = await evaluate(state, config, { ...values, first_answer: expected, second_answer: extracted });
        evaluations.push(first);
        if (!firstEqual) failure = "judge_evaluation_failed";
        else if (!config.check_twice_swap) [passed, reward, failure] = [true, 1.0, "none"];
        else {
          const [secondEqual, second] = await evaluate(state, config, { ...values, first_answer: extracted, second_answer: expected });
          evaluations.push(second);
          [passed, reward, failure] = secondEqual ? [true, 1.0, "none"] : [false, config.reward_if_swap_fails, "judge_evaluation_failed"];
        }
      }
      return { reward, ...base, model_output: generated, extracted_sql: extracted, judge_passed: passed, failure_reason: failure, judge_evaluations: evaluations };
    },
  },
});
