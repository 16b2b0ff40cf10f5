/**
 * Penn Treebank part-of-speech tags for NLTK tokens, standing in for `nltk.pos_tag` (NLTK's averaged perceptron
 * tagger, whose trained weights are data we cannot ship): wink-pos-tagger tags the same tokens with the same tag set.
 */
// @ts-expect-error wink-pos-tagger ships no type declarations
import posTagger from "wink-pos-tagger";

let tagger: { tagRawTokens(tokens: string[]): { pos: string }[] } | undefined;

/** The tag of each token, in order. */
export function posTags(tokens: string[]): string[] {
  if (tokens.length === 0) return [];
  tagger ??= posTagger();
  return tagger!.tagRawTokens(tokens).map((t) => t.pos);
}
