// Highlighting. Suggestions carry the service's own match ranges; grid cells get the query's tokens
// located here with the same folding as the service (src/search/normalize.ts, CONTRACT §4): a token
// matches the start of a word, accents and case ignored, so "zoe ang" marks "Zoë" and "Ång".

import { FOLDS } from './search-folds.js'; // the service's own table, served from normalize.ts

function fold(ch) {
  return (
    FOLDS[ch] ??
    ch
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
  );
}

/** The query's tokens, folded; digit groups typed with separators ("030 12") stay one digit token. */
export function queryTokens(query) {
  return (query.match(/[\p{L}\p{N}@._+-]+/gu) ?? [])
    .map((t) => [...t].map(fold).join(''))
    .filter((t) => t.length > 0);
}

// German and Nordic letters also written as two (CONTRACT §4, as the service's src/search/variants.ts):
// "mueller" marks "Müller", and "muller" (the typed two letters as one) marks "Mueller".
const TWO_LETTERS = { ä: 'ae', ö: 'oe', ü: 'ue', å: 'aa', ø: 'oe' };
const ONE_LETTER = { ae: 'a', oe: 'o', ue: 'u', aa: 'a' };

/** A folded token with its two-letter spellings as one ("mueller" → "muller"), or undefined. */
function oneLetter(token) {
  const folded = token.replace(/ae|oe|ue|aa/g, (d) => ONE_LETTER[d]);
  return folded === token ? undefined : folded;
}

/**
 * The text folded, each folded character remembering the original index it came from; `spelling`
 * 'two' writes umlauts as two letters, 'one' writes two-letter spellings as one.
 */
function foldedText(text, spelling) {
  let folded = '';
  const from = [];
  let i = 0;
  for (const ch of text) {
    const f = (spelling === 'two' && TWO_LETTERS[ch.toLowerCase()]) || fold(ch);
    for (let k = 0; k < f.length; k++) from.push(i);
    folded += f;
    i += ch.length;
  }
  from.push(text.length);
  if (spelling !== 'one') return { folded, from };
  let one = '';
  const oneFrom = [];
  for (let k = 0; k < folded.length; k++) {
    const single = ONE_LETTER[folded.slice(k, k + 2)];
    one += single ?? folded[k];
    oneFrom.push(from[k]);
    if (single) k++;
  }
  oneFrom.push(text.length);
  return { folded: one, from: oneFrom };
}

/** Ranges [{Start, Length}] in `text` where a word starts with one of `tokens` (in any of its spellings). */
export function findRanges(text, tokens) {
  if (!tokens.length || !text) return [];
  const spellings = [...tokens, ...tokens.map(oneLetter).filter(Boolean)];
  const best = new Map(); // start in the original → end
  for (const { folded, from } of ['as-is', 'two', 'one'].map((s) => foldedText(text, s))) {
    const wordStart = /(^|[^\p{L}\p{N}])[\p{L}\p{N}]/gu;
    for (const m of folded.matchAll(wordStart)) {
      const at = m.index + m[1].length;
      let hit = '';
      for (const t of spellings) if (t.length > hit.length && folded.startsWith(t, at)) hit = t;
      if (!hit) continue;
      const start = from[at];
      const end = from[at + hit.length] ?? text.length;
      best.set(start, Math.max(best.get(start) ?? 0, end));
    }
  }
  return [...best]
    .sort((a, b) => a[0] - b[0])
    .map(([start, end]) => ({ Start: start, Length: Math.max(end - start, 1) }));
}

/** Text with the ranges wrapped in <mark>, built from text nodes only (no HTML from data). */
export function highlighted(text, ranges) {
  const frag = document.createDocumentFragment();
  let at = 0;
  for (const r of [...ranges].sort((a, b) => a.Start - b.Start)) {
    if (r.Start < at) continue;
    const mark = document.createElement('mark');
    mark.textContent = text.slice(r.Start, r.Start + r.Length);
    frag.append(text.slice(at, r.Start), mark);
    at = r.Start + r.Length;
  }
  frag.append(text.slice(at));
  return frag;
}
