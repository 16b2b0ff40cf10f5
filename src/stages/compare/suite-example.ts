/** The annotated suite `gym eval compare-suite --example` prints (and its --help shows). */
export const SUITE_EXAMPLE = `# A gym eval compare-suite suite. Paths are relative to this file's folder.
benchmarks:                        # each benchmark: the metrics compared, on their full theoretical scale
  mcqa:
    metrics:
      - {metric: mean/reward, lower: 0, upper: 1}                            # normalized to 0..100
  math:
    metrics:
      - {metric: pass@1/accuracy, lower: 0, upper: 100}
      - {metric: mean/error_rate, lower: 0, upper: 1, higher_is_better: false}
models:                            # model → benchmark → the runs of each side
  my-model:
    mcqa: {baseline: runs/base/mcqa/rollouts.jsonl, candidate: runs/cand/mcqa/rollouts.jsonl}
    math:
      baseline: [runs/base/math/r1.jsonl, runs/base/math/r2.jsonl]           # several runs are pooled
      candidate: runs/cand/math/rollouts.jsonl
      # baseline_agg_metrics / candidate_agg_metrics: metrics files instead of <stem>_aggregate_metrics.json;
      # agent (or baseline_agent / candidate_agent): the agent to read when a run has several
`;
