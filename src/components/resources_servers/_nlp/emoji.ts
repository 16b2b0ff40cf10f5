/**
 * `emoji.is_emoji(ch)` for one character (the emoji package's EMOJI_DATA keys of length one): Unicode's Emoji
 * property minus the keycap bases (digits, `#`, `*`) and the regional indicators, which are emoji only in sequences.
 */
const EMOJI = /^\p{Emoji}$/u;
const SEQUENCE_ONLY = /^[0-9#*\u{1f1e6}-\u{1f1ff}]$/u;

export function isEmoji(ch: string): boolean {
  return EMOJI.test(ch) && !SEQUENCE_ONLY.test(ch);
}
