/** `gym dev test [FILTER…]`: gym's own unit tests with coverage reporting, from a source checkout. */
import { defineGymCommand } from "../_command.ts";

export default defineGymCommand({
  meta: { name: "dev test", description: "Run gym's unit tests with coverage reporting (in a source checkout)" },
  args: {
    filter: { type: "positional", required: false, description: "Only test files whose path contains FILTER (repeatable)", valueHint: "FILTER" },
  },
  examples: [
    "gym dev test",
    "gym dev test src/metrics",
    "",
    "Runs `bun test --coverage` in the gym checkout this gym runs from (or the one around the cwd), with the Bun",
    "the binary carries. The tests ship with the source, not with the binary: outside a checkout it says so.",
  ],
  async run({ rawArgs }) {
    const { runDevTests } = await import("../../catalog/dev-tests.ts");
    return runDevTests(rawArgs.filter((token) => !token.startsWith("-")));
  },
});
