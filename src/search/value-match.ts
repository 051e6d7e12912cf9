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

/**
 * Whether typed text `q` meets a word through the ä/ae letter family (variants.ts), by `meets`
 * (startsWith for a prefix, includes for a substring): one of the word's `variants` meets `q`, or
 * one of its own `spelled` terms meets `q`'s one-letter spelling. Its spelling meeting `q` itself is
 * the caller's (the exact tier). Search's rule (query/assign.ts), shared by value suggestions and the
 * Prefix and Contains filters. Here, not in variants.ts: that file's source is hashed into the index
 * code version (index/version.ts), and this rule is read at query time only.
 */
export function meetsVariant(
  spelled: readonly string[],
  variants: readonly string[],
  q: string,
  meets: (spelling: string, typed: string) => boolean,
): boolean {
  if (variants.some((s) => meets(s, q))) return true;
  const single = typedLetterVariant(q);
  return single !== undefined && spelled.some((s) => meets(s, single));
}

/** The two ways a typed text meets a spelling: as its prefix, or anywhere in it. */
export const startsWith = (s: string, q: string) => s.startsWith(q);
export const includes = (s: string, q: string) => s.includes(q);

export function valueTier(value: string, typed: readonly string[], given = false): ValueTier {
  const words = valueWords(value, given);
  const whole = normalize(value);
  const used = new Set<number>();
  let tier: 0 | 1 = 0;
  for (const q of typed) {
    const free = (j: number) => !used.has(j);
    let i = words.findIndex((w, j) => free(j) && w.spelled.some((s) => s.startsWith(q)));
    if (i < 0) {
      // No free word spelled so: a word met here is met through a variant.
      i = words.findIndex((w, j) => free(j) && meetsVariant(w.spelled, w.variants, q, startsWith));
      if (i >= 0) tier = 1;
    }
    if (i >= 0) {
      used.add(i);
      continue;
    }
    if (!whole.startsWith(q)) return undefined; // e.g. an email or code typed with punctuation
  }
  return tier;
}
