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

/** Ranges [{Start, Length}] in `text` where a word starts with one of `tokens`. */
export function findRanges(text, tokens) {
  if (!tokens.length || !text) return [];
  // The folded text, each folded character remembering the original index it came from.
  let folded = '';
  const from = [];
  let i = 0;
  for (const ch of text) {
    const f = fold(ch);
    for (let k = 0; k < f.length; k++) from.push(i);
    folded += f;
    i += ch.length;
  }
  from.push(text.length);
  const ranges = [];
  const wordStart = /(^|[^\p{L}\p{N}])[\p{L}\p{N}]/gu;
  for (const m of folded.matchAll(wordStart)) {
    const at = m.index + m[1].length;
    let best = '';
    for (const t of tokens) if (t.length > best.length && folded.startsWith(t, at)) best = t;
    if (best) {
      const start = from[at];
      const end = from[at + best.length] ?? text.length;
      ranges.push({ Start: start, Length: Math.max(end - start, 1) });
    }
  }
  return ranges;
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
