/** Serves the SimpleQA policy and judge mocks on 127.0.0.1 in their own process; prints both URLs. `GET <judge>/stats` reports its calls and peak in flight. */
import { serve } from "../../src/runtime/serve.ts";
import { judgeEndpoint, policyEndpoint } from "../../src/testing/judge-mocks.ts";

const latency = Number(process.argv[2] ?? 0);
const policy = await serve(policyEndpoint({ latencyMs: latency }));
const judge = judgeEndpoint({ latencyMs: latency });
const served = await serve((request) => (new URL(request.url).pathname === "/stats" ? Response.json(judge.stats) : judge.fetch(request)));
console.log(`${policy.url} ${served.url}`);
