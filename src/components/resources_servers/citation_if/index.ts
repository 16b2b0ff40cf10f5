/**
 * citation_if: citation instruction following (NeMo Gym's `citation_if`). The row's `verifier` names the grammar, id
 * scheme, valid and expected ids; the reward is 1 when every gate passes (score.ts), with `match_details` saying which
 * failed. Any tool call is answered with a fixed terminal text (plain text, as NeMo Gym's catch-all route). No metrics
 * of its own; reverify mode unknown, as NeMo Gym's.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py, type ResourcesServerFactory } from "../../../servers/resources/index.ts";
import { TERMINAL_TOOL_RESPONSE } from "./grammars.ts";
import { responseShape, scoreCitationIf } from "./score.ts";

const server = defineResourcesServer({
  name: "citation_if",
  className: "CitationIfResourcesServer",
  verify: {
    request: { fields: { verifier: py.dict() } },
    response: ["verifier", "match_details"],
    handler(body) {
      const [text, calls] = responseShape(body.response as JsonObject);
      const [reward, details] = scoreCitationIf(text, calls, body.verifier as JsonObject);
      return { reward, match_details: details };
    },
  },
});

const factory: ResourcesServerFactory = Object.assign(
  (...args: Parameters<typeof server>) => {
    const app = server(...args);
    app.post("/:tool_name", (c) => c.text(TERMINAL_TOOL_RESPONSE));
    return app;
  },
  { definition: server.definition },
);

export default factory;
