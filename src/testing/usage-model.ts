/** For end-to-end tests: an OpenAI-compatible /v1/responses endpoint that answers `\boxed{A}` with known usage. */

/** The usage the endpoint reports for its n-th call (0-based): different per call, with cached and reasoning tokens. */
export function usageOfCall(n: number) {
  const input = 100 + (n % 7) * 10;
  const output = 40 + (n % 5) * 4;
  return { input_tokens: input, input_tokens_details: { cached_tokens: 20 }, output_tokens: output, output_tokens_details: { reasoning_tokens: 8 }, total_tokens: input + output };
}

/** A fetch handler answering every POST …/responses; `model` is what the responses name (a dated name tests price lookup). */
export function usageModel(model: string, latencyMs = 5): { fetch: (request: Request) => Promise<Response>; calls: () => number } {
  let calls = 0;
  return {
    calls: () => calls,
    async fetch(request: Request) {
      if (request.method !== "POST" || !new URL(request.url).pathname.endsWith("/responses")) return new Response("not found", { status: 404 });
      await request.json();
      const n = calls++;
      await new Promise((resolve) => setTimeout(resolve, latencyMs));
      const body = {
        id: `resp_${n}`,
        object: "response",
        created_at: 1_700_000_000,
        model,
        status: "completed",
        output: [{ id: `msg_${n}`, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "The answer is \\boxed{A}", annotations: [] }] }],
        parallel_tool_calls: true,
        tool_choice: "auto",
        tools: [],
        usage: usageOfCall(n),
      };
      return Response.json(body);
    },
  };
}
