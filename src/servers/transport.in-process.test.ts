import { InProcessServerClient } from "./in-process.ts";
import { transportSuite } from "./transport.case.ts";

transportSuite("in-process (app.fetch)", async (app) => {
  const client = new InProcessServerClient("counter", app);
  return { client, close: () => client.close() };
});
