/**
 * Whether a field value is suggested for typed text (GetPredictiveOptions), by the rules of search
 * (CONTRACT §4): every typed token a prefix of a different word of the value — or of a word's part
 * (after an apostrophe, or inside a Han or kana run) — as spelled, or else through a variant spelling
 * (ä/ae both ways, Latin spellings of other scripts, and a given name's nicknames), which suggests the
 * value after every value matched as spelled.
 */
import { nicknamesOfWord } from './nicknames.ts';
import { normalize } from './normalize.ts';
import { fieldTokens, tokenTerms } from './tokenize.ts';
import { typedLetterVariant } from './variants.ts';

/** How a value matches: 0 as spelled, 1 through a variant spelling; undefined, no match. */
export type ValueTier = 0 | 1 | undefined;

interface ValueWord {
  readonly spelled: readonly string[];
  readonly variants: readonly string[];
}

/** `given`: the value is a given name (its words' nicknames are variants, as in search). */
function valueWords(value: string, given: boolean): ValueWord[] {
  return fieldTokens(value).map((t) => ({
    spelled: tokenTerms(t),
    variants: [...(t.variants ?? []), ...((given && nicknamesOfWord(t)) || [])],
  }));
}

export function valueTier(value: string, typed: readonly string[], given = false): ValueTier {
  const words = valueWords(value, given);
  const whole = normalize(value);
  const used = new Set<number>();
  let tier: 0 | 1 = 0;
  for (const q of typed) {
    const single = typedLetterVariant(q);
    const free = (j: number) => !used.has(j);
    let i = words.findIndex((w, j) => free(j) && w.spelled.some((s) => s.startsWith(q)));
    if (i < 0)
      i = words.findIndex(
        (w, j) =>
          free(j) &&
          (w.variants.some((s) => s.startsWith(q)) ||
            (single !== undefined && w.spelled.some((s) => s.startsWith(single)))),
      );
    if (i >= 0) {
      if (words[i].spelled.every((s) => !s.startsWith(q))) tier = 1;
      used.add(i);
      continue;
    }
    if (!whole.startsWith(q)) return undefined; // e.g. an email or code typed with punctuation
  }
  return tier;
}
