/** mock_model's deterministic "policy": what it answers to a conversation, the same way on both endpoints. */
import { createHash } from "node:crypto";

/** A conversation reduced to what the policy looks at. */
export interface Turn {
  role: "user" | "assistant" | "system" | "developer" | "tool";
  text: string;
  /** A tool call the assistant made in this turn. */
  call?: { id: string; name: string; arguments: string };
}

export interface ToolSpec {
  name: string;
  parameters?: Record<string, any> | null;
}

/** What to say next: tool calls, or text; optional reasoning. */
export interface Decision {
  text?: string;
  calls: { id: string; name: string; arguments: string }[];
  reasoning?: string;
}

/** Stable hex digest of anything JSON-serialisable. */
export function digest(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex");
}

/**
 * The policy. With tools and no tool result since the last user message, it calls the first tool with
 * arguments filled from the prompt (a city for `get_weather`). After a tool result it reports it. A
 * multiple-choice prompt (`A: …` / `(A) …` lines) gets a letter, picked from a hash of the prompt, both as
 * `Answer: X` and `\boxed{X}`. Anything else gets a short echo.
 */
export function decide(turns: Turn[], tools: ToolSpec[], options: { reasoning?: boolean } = {}): Decision {
  const lastUser = [...turns].reverse().find((t) => t.role === "user");
  const prompt = lastUser?.text ?? "";
  const sinceUser = turns.slice(turns.lastIndexOf(lastUser!) + 1);
  const toolResults = sinceUser.filter((t) => t.role === "tool");
  const reasoning = options.reasoning ? `The user asked: ${prompt.slice(0, 60)}` : undefined;
  if (tools.length > 0 && toolResults.length === 0 && !sinceUser.some((t) => t.call)) {
    const tool = tools[0]!;
    const id = `call_${digest([prompt, tool.name]).slice(0, 24)}`;
    return { calls: [{ id, name: tool.name, arguments: JSON.stringify(fillArguments(tool, prompt)) }], reasoning };
  }
  if (toolResults.length > 0) {
    return { text: `Here is what I found: ${toolResults.map((t) => t.text).join("\n")}`, calls: [], reasoning };
  }
  const letters = optionLetters(prompt);
  if (letters.length > 0) {
    const letter = letters[parseInt(digest(prompt).slice(0, 8), 16) % letters.length]!;
    return { text: `Let me think step by step.\n\nAnswer: ${letter}\n\n\\boxed{${letter}}`, calls: [], reasoning };
  }
  if (prompt.includes("```python")) {
    // A code prompt (LiveCodeBench, HumanEval): a fenced program that echoes stdin, so code verifiers really run it.
    return { text: "Echo the input.\n\n```python\nimport sys\nsys.stdout.write(sys.stdin.read())\n```", calls: [], reasoning };
  }
  return { text: `This is a mock answer to: ${prompt.slice(0, 80)}`, calls: [], reasoning };
}

/** Option letters listed in a multiple-choice prompt, in order. */
export function optionLetters(prompt: string): string[] {
  const found = new Set<string>();
  for (const match of prompt.matchAll(/^\s*\(?([A-Z])[:).]\s+\S/gm)) found.add(match[1]!);
  return found.size >= 2 ? [...found] : [];
}

const CITIES: [RegExp, string][] = [
  [/\b(sf|san francisco)\b/i, "San Francisco"],
  [/\b(nyc|new york)\b/i, "New York"],
  [/\bla\b|\blos angeles\b/i, "Los Angeles"],
];

function fillArguments(tool: ToolSpec, prompt: string): Record<string, unknown> {
  const properties = (tool.parameters?.properties ?? {}) as Record<string, { type?: string }>;
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(properties)) {
    if (key === "city") out[key] = CITIES.find(([re]) => re.test(prompt))?.[1] ?? capitalised(prompt) ?? "San Francisco";
    else if (spec?.type === "integer" || spec?.type === "number") out[key] = 1;
    else if (spec?.type === "boolean") out[key] = true;
    else if (spec?.type === "array") out[key] = [];
    else out[key] = prompt.slice(0, 40);
  }
  return out;
}

function capitalised(prompt: string): string | undefined {
  // A capitalised word after "in" is a good guess for a place ("weather in Paris").
  return /\bin ([A-Z][a-z]+(?: [A-Z][a-z]+)?)/.exec(prompt)?.[1];
}

/** A rough token count: one per 4 characters, at least 1. */
export function tokenCount(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
