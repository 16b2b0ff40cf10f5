/** Serves mock_model on 127.0.0.1 in its own process (so the load and the server do not share an event loop). Prints the URL. */
import mockModel from "../../src/components/responses_api_models/mock_model/index.ts";
import { serve } from "../../src/runtime/serve.ts";

const latency = Number(process.argv[2] ?? 0);
const context = { name: "mock", serverType: "responses_api_models", implementation: "mock_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} };
const app = await mockModel({ model: "mock", latency_ms: latency }, context as never);
const served = await serve(app.fetch);
console.log(served.url);
