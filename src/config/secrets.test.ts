import { describe, expect, test } from "bun:test";
import { isSecretKey, maskSecrets } from "./secrets.ts";

describe("maskSecrets", () => {
  test("hides API keys, tokens, passwords, authorization headers and secrets", () => {
    const tree = {
      policy_api_key: "sk-secret",
      hf_token: "hf_x",
      wandb_api_key: "w",
      mlflow_tracking_token: "t",
      db: { password: "p", user: "u" },
      headers: { Authorization: "Bearer x", "X-Api-Key": "k", Accept: "json" },
      client_secret: "s",
      apiKey: "camel",
      keys: ["a", "b"],
    };
    expect(maskSecrets(tree)).toEqual({
      policy_api_key: "****",
      hf_token: "****",
      wandb_api_key: "****",
      mlflow_tracking_token: "****",
      db: { password: "****", user: "u" },
      headers: { Authorization: "****", "X-Api-Key": "****", Accept: "json" },
      client_secret: "****",
      apiKey: "****",
      keys: ["****", "****"],
    });
  });

  test("NOT max_output_tokens / max_tokens / key_metrics (NeMo Gym's substring rule hides them; fixed on purpose)", () => {
    const tree = { responses_create_params: { max_output_tokens: 512, max_tokens: 64 }, key_metrics: ["reward"], return_token_id_information: true, token_id_capture: { on: true } };
    expect(maskSecrets(tree)).toEqual(tree);
    for (const key of ["max_output_tokens", "max_tokens", "key_metrics", "return_token_id_information", "tokenizer", "num_tokens"]) expect(isSecretKey(key)).toBe(false);
  });

  test("walks mappings inside lists; secrets read from secret-named environment variables are masked whatever the key", () => {
    const tree = { servers: [{ api_key: "k", name: "n" }], judge: { credential_source: "${oc.env:JUDGE_API_KEY}", url: "${oc.env:JUDGE_URL}" } };
    expect(maskSecrets(tree)).toEqual({ servers: [{ api_key: "****", name: "n" }], judge: { credential_source: "****", url: "${oc.env:JUDGE_URL}" } });
  });

  test("does not change its input; null stays null", () => {
    const tree = { api_key: "k", token: null };
    expect(maskSecrets(tree)).toEqual({ api_key: "****", token: null });
    expect(tree.api_key).toBe("k");
  });
});
