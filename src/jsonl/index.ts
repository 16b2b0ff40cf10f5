export * from "./read.ts";
export * from "./write.ts";
export * from "./concurrency.ts";
export * from "./join.ts";
export { readLines, type Line } from "./lines.ts";
