export * from "./read.ts";
export * from "./write.ts";
export * from "./concurrency.ts";
export * from "./join.ts";
export { readLineBatches, readLines, type Line } from "./lines.ts";
