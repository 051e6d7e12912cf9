/**
 * Given names and their nicknames, both ways (CONTRACT.md §4: "bob" finds Robert, "robert" finds Bob),
 * from the curated data in nicknames-data/ (its README says where each file comes from and its
 * licence). Read once when the module loads; a contact's given names get their nicknames as variant
 * spellings at index time (contact-tokens.ts).
 */
import { readFileSync } from 'node:fs';
import { normalize } from './normalize.ts';
import type { Token } from './tokenize.ts';

/** At most this many nicknames per name (a few names list 15): each one is an entry per contact at 1M. */
export const MAX_NICKNAMES = 8;

function load(): Map<string, string[]> {
  const own = new Map<string, string[]>(); // a row's nicknames, first: the dataset's own for that name
  const back = new Map<string, string[]>(); // names whose row lists it
  const add = (m: Map<string, string[]>, k: string, v: string) => {
    const list = m.get(k) ?? [];
    if (!list.includes(v)) list.push(v);
    m.set(k, list);
  };
  // The Demo locales' rows first: under the bound a name keeps its own locale's pairs (Lena ↔ Elena)
  // before the US dataset's long lists (Lena is listed for eight names there).
  for (const file of ['locales.csv', 'names.csv']) {
    const text = readFileSync(new URL(`./nicknames-data/${file}`, import.meta.url), 'utf8');
    for (const line of text.split('\n')) {
      if (!line.trim() || line.startsWith('#')) continue;
      const [name, ...nicks] = line.split(',').map((s) => normalize(s.trim()));
      for (const n of nicks) {
        if (!n || n === name || !/^[\p{L}-]+$/u.test(n)) continue; // "k.c." and the like: not one word
        add(own, name, n);
        add(back, n, name);
      }
    }
  }
  const out = new Map<string, string[]>();
  for (const k of new Set([...own.keys(), ...back.keys()])) {
    const all = [...(own.get(k) ?? [])];
    for (const n of back.get(k) ?? []) if (!all.includes(n)) all.push(n);
    // Matching is by prefix: a nickname that starts the name ("rob" of "robert") or another nickname
    // ("bob" of "bobby") is found through it, so it needs no entry of its own.
    const needed = all.filter(
      (n) => !k.startsWith(n) && !all.some((m) => m !== n && m.startsWith(n)),
    );
    out.set(k, needed.slice(0, MAX_NICKNAMES));
  }
  return out;
}

const NICKNAMES = load();

/** The nicknames of a given name, or its full names when it is a nickname (normalised), or undefined. */
export const nicknamesOf = (term: string): readonly string[] | undefined => NICKNAMES.get(term);

/** A given name's nicknames: of the word and of its Latin spelling (Александр: саша; "aleksandr" → sasha). */
export function nicknamesOfWord(t: Token): readonly string[] | undefined {
  const own = nicknamesOf(t.term);
  let latin: readonly string[] | undefined;
  for (const v of t.variants ?? []) if ((latin = nicknamesOf(v))) break;
  if (!own || !latin) return own ?? latin;
  return [...new Set([...own, ...latin])];
}
