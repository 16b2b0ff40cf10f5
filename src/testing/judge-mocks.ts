/** For judged end-to-end tests and benches: a SimpleQA-shaped dataset, a policy endpoint that answers it, and an OpenAI-style judge that can fail on purpose. */
import { writeFileSync } from "node:fs";

/** Writes `tasks` SimpleQA rows: question i's gold target is `answer-<i>`. */
export function writeSimpleQADataset(path: string, tasks: number): void {
  let text = "";
  for (let i = 0; i < tasks; i++) {
    const question = `What is the code word of question ${i}?`;
    text += `${JSON.stringify({ id: `q${i}`, question, expected_answer: `answer-${i}`, responses_create_params: { input: [{ role: "user", content: question }] } })}\n`;
  }
  writeFileSync(path, text);
}

const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });

/** The policy: `/v1/responses` answers question i with "answer-i" for even i and "answer-x" for odd i (deterministic usage). */
export function policyEndpoint(options: { latencyMs?: number } = {}): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    if (request.method !== "POST" || !url.pathname.endsWith("/responses")) return json({ object: "list", data: [{ id: "policy", object: "model" }] });
    const body = (await request.json()) as { input: { content: string }[]; model: string };
    const question = JSON.stringify(body.input);
    const i = Number(/question (\d+)/.exec(question)?.[1] ?? 0);
    const text = `The code word is ${i % 2 === 0 ? `answer-${i}` : "answer-x"}.`;
    if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
    return json({
      id: `resp_${i}`, created_at: 1700000000, model: body.model, object: "response", parallel_tool_calls: true, tool_choice: "auto", tools: [], status: "completed",
      output: [{ id: `msg_${i}`, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }],
      usage: { input_tokens: 10 + i, input_tokens_details: { cached_tokens: 0 }, output_tokens: 7, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 17 + i },
    });
  };
}

export interface JudgeEndpointStats {
  calls: number;
  failed: number;
  inFlight: number;
  maxInFlight: number;
}

/**
 * The judge: `/v1/chat/completions` and `/v1/responses` grade "A" when the predicted answer contains the gold
 * target, else "B". With `failEvery: 3`, every third call fails, in turn with a 401 (bad key), a 200 of HTML and a
 * 200 whose verdict is empty — failures a model server does not retry, so each is a judge failure of its row.
 */
export function judgeEndpoint(options: { failEvery?: number; latencyMs?: number; apiKey?: string } = {}): { fetch: (request: Request) => Promise<Response>; stats: JudgeEndpointStats } {
  const stats: JudgeEndpointStats = { calls: 0, failed: 0, inFlight: 0, maxInFlight: 0 };
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (request.method !== "POST") return json({ object: "list", data: [{ id: "judge", object: "model" }] });
    if (options.apiKey && request.headers.get("authorization") !== `Bearer ${options.apiKey}`) return json({ error: { message: "bad key" } }, 401);
    const n = ++stats.calls;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    try {
      const body = (await request.json()) as { messages?: { content: string }[]; input?: { content: string }[] };
      const prompt = (body.messages ?? body.input ?? []).map((m) => m.content).join("\n");
      if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
      let verdict = /Gold target: (\S+)\nPredicted answer: [^\n]*\1/.test(prompt) ? "A" : "B";
      if (options.failEvery && n % options.failEvery === 0) {
        stats.failed++;
        const kind = (n / options.failEvery) % 3;
        if (kind === 1) return json({ error: { message: "Incorrect API key provided", type: "invalid_request_error" } }, 401);
        if (kind === 2) return new Response("<html><body><h1>502 Bad Gateway</h1></body></html>", { status: 200, headers: { "content-type": "text/html" } });
        verdict = "";
      }
      if (url.pathname.endsWith("/chat/completions")) {
        return json({ id: `chatcmpl-${n}`, object: "chat.completion", created: 0, model: "judge", choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: verdict } }] });
      }
      return json({
        id: `resp_j${n}`, created_at: 0, model: "judge", object: "response", parallel_tool_calls: true, tool_choice: "auto", tools: [], status: "completed",
        output: [{ id: `msg_j${n}`, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: verdict, annotations: [] }] }],
      });
    } finally {
      stats.inFlight--;
    }
  };
  return { fetch, stats };
}
