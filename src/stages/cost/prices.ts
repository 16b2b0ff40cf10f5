/** Model prices in USD per million tokens: a small built-in table of hosted models, overridden by a user's prices file. */
import * as fs from "node:fs";
import { isMapping, parseYaml } from "../../config/index.ts";
import { GymError } from "../../errors.ts";

/** One model's prices, USD per million tokens. `cached_input` defaults to `input`, `reasoning` to `output`. */
export interface Price {
  input: number;
  output: number;
  cached_input?: number;
  reasoning?: number;
  /** Prices for calls whose prompt is larger than `above_input_tokens` (the last tier that applies wins). */
  tiers?: (Omit<Price, "tiers"> & { above_input_tokens: number })[];
}

export type PriceTable = Record<string, Price>;

/** Where the built-in prices come from; shown by `--help` and in every cost report. */
export const BUILTIN_PRICES_SOURCE =
  "built-in prices: USD per million tokens from the providers' public pricing pages (openai.com/api/pricing, " +
  "anthropic.com/pricing, ai.google.dev/pricing) as read on 2025-08-01; prices change: a --prices file overrides any entry";

/** The built-in table: a few well-known hosted models. Everything else needs a --prices file. */
export const BUILTIN_PRICES: PriceTable = {
  "gpt-5": { input: 1.25, cached_input: 0.125, output: 10 },
  "gpt-5-mini": { input: 0.25, cached_input: 0.025, output: 2 },
  "gpt-5-nano": { input: 0.05, cached_input: 0.005, output: 0.4 },
  "gpt-4.1": { input: 2, cached_input: 0.5, output: 8 },
  "gpt-4.1-mini": { input: 0.4, cached_input: 0.1, output: 1.6 },
  "gpt-4.1-nano": { input: 0.1, cached_input: 0.025, output: 0.4 },
  "gpt-4o": { input: 2.5, cached_input: 1.25, output: 10 },
  "gpt-4o-mini": { input: 0.15, cached_input: 0.075, output: 0.6 },
  o3: { input: 2, cached_input: 0.5, output: 8 },
  "o3-mini": { input: 1.1, cached_input: 0.55, output: 4.4 },
  "o4-mini": { input: 1.1, cached_input: 0.275, output: 4.4 },
  "claude-opus-4": { input: 15, cached_input: 1.5, output: 75 },
  "claude-sonnet-4": { input: 3, cached_input: 0.3, output: 15 },
  "claude-3-7-sonnet": { input: 3, cached_input: 0.3, output: 15 },
  "claude-3-5-haiku": { input: 0.8, cached_input: 0.08, output: 4 },
  "gemini-2.5-pro": { input: 1.25, cached_input: 0.31, output: 10, tiers: [{ above_input_tokens: 200_000, input: 2.5, cached_input: 0.625, output: 15 }] },
  "gemini-2.5-flash": { input: 0.3, cached_input: 0.075, output: 2.5 },
};

const FIELDS = ["input", "output", "cached_input", "reasoning"] as const;

/** Reads a prices YAML (`MODEL: {input, output, cached_input, reasoning, tiers}`), every field checked. */
export function loadPricesFile(file: string): PriceTable {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    throw new GymError("E_INPUT_NOT_FOUND", `Prices file not found: ${file}`, { hint: "Pass --prices FILE (YAML: `MODEL: {input: 2.5, output: 10}` in USD per million tokens)." });
  }
  const doc = parseYaml(text, file);
  if (!isMapping(doc)) throw badPrice(file, "(top level)", "a mapping of model names", doc);
  const table: PriceTable = {};
  for (const [model, value] of Object.entries(doc)) table[model] = checkPrice(file, model, value, true);
  return table;
}

function checkPrice(file: string, where: string, value: unknown, allowTiers: boolean): Price {
  if (!isMapping(value)) throw badPrice(file, where, "a mapping like {input: 2.5, output: 10}", value);
  const price: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === "tiers" && allowTiers) {
      if (!Array.isArray(v)) throw badPrice(file, `${where}.tiers`, "a list of {above_input_tokens, input, output}", v);
      price.tiers = v.map((tier, i) => {
        const above = isMapping(tier) ? tier.above_input_tokens : undefined;
        if (typeof above !== "number" || !(above >= 0)) throw badPrice(file, `${where}.tiers[${i}].above_input_tokens`, "a number of tokens ≥ 0", above);
        const { above_input_tokens: _, ...rest } = tier as Record<string, unknown>;
        return { above_input_tokens: above, ...checkPrice(file, `${where}.tiers[${i}]`, rest, false) };
      });
    } else if ((FIELDS as readonly string[]).includes(key)) {
      if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw badPrice(file, `${where}.${key}`, "a number ≥ 0 (USD per million tokens)", v);
      price[key] = v;
    } else throw badPrice(file, `${where}.${key}`, `one of ${FIELDS.join(", ")}${allowTiers ? ", tiers" : ""}`, key);
  }
  for (const key of ["input", "output"]) if (price[key] === undefined) throw badPrice(file, `${where}.${key}`, "a number (it is required)", undefined);
  return price as unknown as Price;
}

function badPrice(file: string, field: string, expected: string, got: unknown): GymError {
  return new GymError("E_CONFIG", `${file}: ${field}: expected ${expected}, got ${JSON.stringify(got) ?? "nothing"}.`, {
    hint: "A prices file maps model names to USD per million tokens, e.g.\n  my-model: {input: 0.5, output: 1.5, cached_input: 0.25}",
  });
}

/** The user's table over the built-in one. */
export function priceTable(userFile?: string): PriceTable {
  return userFile ? { ...BUILTIN_PRICES, ...loadPricesFile(userFile) } : { ...BUILTIN_PRICES };
}

/**
 * The price of a model as a response names it: the exact name (the user's file first), then without a provider
 * prefix (`openai/gpt-4o`), then without a release date (`gpt-4o-2024-08-06`, `claude-sonnet-4-20250514`) or `-latest`.
 */
export function priceFor(model: string, table: PriceTable): Price | undefined {
  const names = [model, model.toLowerCase()];
  const bare = model.toLowerCase().replace(/^.*\//, "");
  names.push(bare, bare.replace(/-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/, ""));
  for (const name of names) if (Object.hasOwn(table, name)) return table[name];
  return undefined;
}
