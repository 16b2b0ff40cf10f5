/** One parsed metadata file per path, shared by verify and the metrics hooks of every app in the process. */
import { resolve } from "node:path";
import { loadMetadata, type ProblemIndex } from "./metadata.ts";

const cache = new Map<string, ProblemIndex>();

export function metadataFor(path: string): ProblemIndex {
  const file = resolve(path);
  let index = cache.get(file);
  if (!index) cache.set(file, (index = loadMetadata(file)));
  return index;
}
