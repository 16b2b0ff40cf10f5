/** Hugging Face Hub files: addresses and error answers (hub.ts), the commit-keyed cache (cache.ts), the revalidating download (download.ts). */
export { describeHubStatus, type HfFile, type HfRepoType, hfEndpoint, hfRepoPage, hfResolveUrl, hfToken } from "./hub.ts";
export { type HfDownloadOptions, hfDownload } from "./download.ts";
export { type HfTreeEntry, type HfTreeOptions, type HfTreeRequest, hfListTree, hfTreeUrl } from "./tree.ts";
