import { serve } from "./src/runtime/serve.ts";
import { usageModel } from "./src/testing/usage-model.ts";
const s = await serve(usageModel("gpt-4.1-mini-2025-04-14", 30).fetch);
console.log(s.url);
await new Promise(() => {});
