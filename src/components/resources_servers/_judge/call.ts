/** Judge: one judged server's calls to its judge model server — bounded concurrency, rate limits waited out, every failure a JudgeError. */
import { Semaphore } from "../../../jsonl/concurrency.ts";
import type { ServerDirectory } from "../../../servers/client.ts";
import { callRateLimited } from "../../../servers/rate-limited.ts";
import { JudgeError } from "../../../servers/resources/index.ts";
import { responseProblems, type JsonObject } from "../../../protocol/responses.ts";
import { dumpResponse, dumpResponseCreateParams } from "../../../protocol/responses-dump.ts";
import type { JudgeConfig } from "./config.ts";

/** One judge exchange over the Responses API, as NeMo Gym keeps it in `judge_evaluations[]`. */
export interface JudgeExchange {
  /** The create params sent (the config's, `input` replaced), as `model_dump()` writes them. */
  responses_create_params: JsonObject;
  /** The judge's Responses object, as `model_dump()` writes it. */
  response: JsonObject;
}

/** Observes judge traffic (the bench counts calls in flight with it). */
export interface JudgeProbe {
  started?(): void;
  finished?(ok: boolean): void;
}

let probe: JudgeProbe | undefined;
/** Installs a process-wide observer of judge calls (benchmarks and tests only). */
export function setJudgeProbe(next: JudgeProbe | undefined): void {
  probe = next;
}

/**
 * A server's judge. Calls go through the ServerDirectory to the configured `judge_model_server` instance —
 * an in-process built-in model server (openai_model, vllm_model, …: its own upstream timeouts and 5xx
 * retries apply) or any server reached over HTTP. A 429 (or a 503 with Retry-After) from the model server
 * is waited out; any other failure — connection, timeout, non-2xx, a body that is not JSON, a body that is
 * not a Responses object / chat completion — raises JudgeError, which the resources server turns into
 * `reward: 0, _ng_failure_class: "judge_failed"` and the collector routes to the failures sidecar.
 */
export class Judge {
  readonly config: JudgeConfig;
  private readonly servers: ServerDirectory;
  private readonly limit: Semaphore | undefined;

  /** One per server instance (its semaphore bounds that instance's judge calls in flight). */
  constructor(config: JudgeConfig, servers: ServerDirectory) {
    this.config = config;
    this.servers = servers;
    const max = config.judge_endpoint_max_concurrency;
    this.limit = max !== null && max !== undefined && max > 0 ? new Semaphore(max) : undefined;
  }

  /** The config's `judge_responses_create_params`, deep-copied, with `input` replaced. */
  params(input: JsonObject[] | string): JsonObject {
    return { ...structuredClone(this.config.judge_responses_create_params), input: structuredClone(input) };
  }

  /** POSTs `/v1/responses` with the config's create params and this `input`; returns both sides, dumped. */
  async responses(input: JsonObject[] | string): Promise<JudgeExchange> {
    return this.send(this.params(input));
  }

  /** POSTs `/v1/responses` with exactly these create params (servers that build their own, e.g. `dict(input=…) | overrides`). */
  async send(sent: JsonObject): Promise<JudgeExchange> {
    const body = await this.post<JsonObject>("/v1/responses", sent);
    const problems = responseProblems(body);
    if (problems.length) throw new JudgeError(`ValidationError: the judge answered something that is not a Responses object: ${problems.slice(0, 3).join("; ")}`);
    return { responses_create_params: dumpResponseCreateParams(sent), response: dumpResponse(body) };
  }

  /** POSTs `/v1/chat/completions` with this body; returns the completion (choices checked). */
  async chatCompletions(body: JsonObject): Promise<JsonObject> {
    const completion = await this.post<JsonObject>("/v1/chat/completions", body);
    if (completion === null || typeof completion !== "object" || !Array.isArray(completion.choices)) {
      throw new JudgeError("ValidationError: the judge answered a chat completion without a choices list");
    }
    return completion;
  }

  private async post<T>(path: string, json: JsonObject): Promise<T> {
    await this.limit?.acquire();
    probe?.started?.();
    let ok = false;
    try {
      const client = this.servers.get(this.config.judge_model_server.name);
      const { body } = await callRateLimited<T>(client, path, json, { readOnlyAnswer: true });
      ok = true;
      return body;
    } catch (error) {
      if (error instanceof JudgeError) throw error;
      const e = error instanceof Error ? error : new Error(String(error));
      throw new JudgeError(`${e.name === "GymError" || e.name === "ServerCallError" ? "ClientResponseError" : e.name}: ${e.message}`);
    } finally {
      probe?.finished?.(ok);
      this.limit?.release();
    }
  }
}
