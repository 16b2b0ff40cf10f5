export * from "./read.ts";
export * from "./write.ts";
export * from "./concurrency.ts";
export * from "./join.ts";
export { readLineBatches, readLines, readTextBatches, type Line, type TextBatch } from "./lines.ts";
