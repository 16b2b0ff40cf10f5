/** The flags `gym dataset upload | download | rm | migrate` share, spelled as NeMo Gym spells them. */
export const storageArgs = {
  storage: { type: "string", description: "hf (Hugging Face, default) or gitlab (generic package registry)", valueHint: "hf|gitlab" },
  name: { type: "string", description: "Dataset name (GitLab package name; on Hugging Face the repo is <hf_organization>/<name>)", valueHint: "NAME" },
  "repo-id": { type: "string", description: "Hugging Face dataset repo id, ORG/NAME", valueHint: "ORG/NAME" },
  revision: { type: "string", description: "Hugging Face branch, tag or commit (default main); GitLab package version (default 0.0.1)", valueHint: "REV" },
} as const;
