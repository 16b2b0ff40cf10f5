/**
 * tiktoken's encodings bundled into the binary (`len(tiktoken.get_encoding(name).encode(text, disallowed_special=()))`):
 * js-tiktoken's rank tables and split regexes (they hash to the sha256 that Python tiktoken pins for each encoding),
 * merged by `bpe.ts`. Loaded on first use: the tables are megabytes.
 */
import { BytePairCounter, type RankTable } from "./bpe.ts";

const ENCODINGS: Record<string, () => Promise<{ default: RankTable }>> = {
  o200k_base: () => import("js-tiktoken/ranks/o200k_base"),
  cl100k_base: () => import("js-tiktoken/ranks/cl100k_base"),
};

export const TIKTOKEN_ENCODINGS = Object.keys(ENCODINGS);
const loaded = new Map<string, Promise<BytePairCounter>>();

/** A `text → token count` function for one encoding (special-token text counts as ordinary text), or undefined for a name not bundled. */
export async function tiktokenCounter(name: string): Promise<((text: string) => number) | undefined> {
  const load = ENCODINGS[name];
  if (!load) return undefined;
  if (!loaded.has(name)) loaded.set(name, load().then((table) => new BytePairCounter(table.default)));
  const counter = await loaded.get(name)!;
  return (text) => counter.count(text);
}
