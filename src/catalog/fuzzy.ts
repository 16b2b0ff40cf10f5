/** NeMo Gym's search rule: a case-folded substring, or a difflib close match on the whole field or its tokens. */
import { closeMatches } from "../text/difflib.ts";

/** Whether `query` matches any field: substring first, else `get_close_matches(q, [field, ...tokens], n=1, cutoff=0.7)`. */
export function fuzzyMatches(query: string, ...fields: (string | undefined | null)[]): boolean {
  const needle = query.toLowerCase();
  for (const field of fields) {
    if (!field) continue;
    const haystack = field.toLowerCase();
    if (haystack.includes(needle)) return true;
    // The field is tokenized on _ - and whitespace; the query never is.
    const tokens = haystack.replace(/[_-]/g, " ").split(/\s+/).filter(Boolean);
    if (closeMatches(needle, [haystack, ...tokens], 1, 0.7).length > 0) return true;
  }
  return false;
}

/** ` Did you mean \`X\`?` for the closest candidate (cutoff 0.6), or "". */
export function didYouMean(value: string, candidates: Iterable<string>): string {
  const [match] = closeMatches(value, [...candidates], 1, 0.6);
  return match ? ` Did you mean \`${match}\`?` : "";
}
