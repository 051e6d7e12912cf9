/**
 * The yardstick of bench:typing (issue 22): an unranked sorted-token index over the same contacts,
 * with the engine's own tokens (contact-tokens.ts eachEntry, tokenize.ts queryTokens), answering a
 * type-ahead query with the ordinals of contacts where every typed token is a prefix of a different
 * token of the contact. No ranking, no typo tolerance, no spelling variants, no highlights: what an
 * index costs before the engine's extras.
 *
 * Layout: the distinct terms sorted (code-unit order), each with its postings (contact ordinals,
 * ascending) in one flat array: the sorted (term, ordinal) pairs, stored by column. Each contact
 * keeps its entries as term ranks, so "is this typed token a prefix of that contact token" is
 * `lo <= rank < hi` for the token's term range.
 *
 * Namespaces as the engine's (search/match.ts compile and matchToken): a word (or a digit group) meets
 * word entries and the pieces of apostrophe words; a typed address meets whole addresses; digits also
 * meet phone numbers by prefix (with or without trunk 0 / international 00). Not kept: the engine's
 * last-4-digits phone match, typo matches, spelling variants and nicknames.
 */
import type { Contact } from '../../src/fields/contact.ts';
import { eachEntry, type EntryKind, type EntrySink } from '../../src/search/contact-tokens.ts';
import { digitVariants, queryTokens, type QueryToken } from '../../src/search/tokenize.ts';

const WORD = 'w',
  EMAIL = 'e',
  PHONE = 'p';
const namespaceOf = (kind: EntryKind) =>
  kind === 'email' ? EMAIL : kind === 'phone' ? PHONE : WORD;

/** The term keys a typed token meets, by prefix (the engine's compile()). */
function queryKeys(q: QueryToken): string[] {
  if (q.kind === 'email') return [EMAIL + q.term];
  const keys = q.international ? [] : [WORD + q.term];
  if (q.kind === 'digits') for (const v of digitVariants(q.term)) keys.push(PHONE + v);
  return keys;
}

/** A growable Uint32Array. */
class U32 {
  a = new Uint32Array(1024);
  n = 0;
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Uint32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  done(): Uint32Array {
    return this.a.slice(0, this.n);
  }
}

export class SortedTokenBaseline {
  private constructor(
    /** Distinct term keys (namespace letter + normalised term), sorted. */
    private readonly terms: string[],
    /** Postings of term r: ordinals[termStart[r] .. termStart[r + 1]). */
    private readonly termStart: Uint32Array,
    private readonly ordinals: Uint32Array,
    /** Entries of contact i (term ranks, in the engine's entry order): ranks[contactStart[i] .. contactStart[i + 1]). */
    private readonly contactStart: Uint32Array,
    private readonly ranks: Uint32Array,
  ) {
    this.bits = new Uint32Array(Math.ceil((contactStart.length - 1) / 32));
  }

  /** Contact ordinals are the iteration order of `contacts`, from 0. */
  static build(contacts: Iterable<Contact>): SortedTokenBaseline {
    const idOf = new Map<string, number>();
    const keys: string[] = [];
    const entries = new U32();
    const starts = new U32();
    const sink = new (class implements EntrySink {
      count = 0;
      entry(kind: EntryKind, term: string): void {
        if (kind === 'variant') return; // the yardstick matches spellings as written (no variants, no typos)
        const key = namespaceOf(kind) + term;
        let id = idOf.get(key);
        if (id === undefined) {
          id = keys.length;
          idOf.set(key, id);
          keys.push(key);
        }
        entries.push(id);
        this.count++;
      }
    })();
    for (const c of contacts) {
      starts.push(entries.n);
      sink.count = 0;
      eachEntry(c, sink);
    }
    starts.push(entries.n);
    idOf.clear();
    const contactStart = starts.done(),
      ranks = entries.done();
    const n = contactStart.length - 1;

    // Rank the terms, then place each contact's ordinal under each of its terms (counting sort:
    // contacts in order, so every posting list comes out ascending).
    const order = Array.from(keys.keys()).sort((a, b) =>
      keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0,
    );
    const rankOf = new Uint32Array(keys.length);
    order.forEach((id, r) => {
      rankOf[id] = r;
    });
    const terms = order.map((id) => keys[id]);
    const termStart = new Uint32Array(terms.length + 1);
    for (let i = 0; i < ranks.length; i++) termStart[(ranks[i] = rankOf[ranks[i]]) + 1]++;
    for (let r = 0; r < terms.length; r++) termStart[r + 1] += termStart[r];
    const fill = termStart.slice(0, terms.length);
    const ordinals = new Uint32Array(ranks.length);
    for (let c = 0; c < n; c++) {
      for (let i = contactStart[c]; i < contactStart[c + 1]; i++) {
        const r = ranks[i];
        // A term twice in one contact ("Anna Anna") is one posting.
        if (fill[r] > termStart[r] && ordinals[fill[r] - 1] === c) continue;
        ordinals[fill[r]++] = c;
      }
    }
    // Postings left unused by twice-seen terms stay at the end of their term's slot: mark them.
    for (let r = 0; r < terms.length; r++)
      for (let p = fill[r]; p < termStart[r + 1]; p++) ordinals[p] = NO_CONTACT;
    return new SortedTokenBaseline(terms, termStart, ordinals, contactStart, ranks);
  }

  get size(): number {
    return this.contactStart.length - 1;
  }
  get termCount(): number {
    return this.terms.length;
  }
  get pairCount(): number {
    return this.ordinals.length;
  }

  /** Term ranks [lo, hi) of the terms starting with `prefix`: two binary searches. */
  private prefixRange(prefix: string): [number, number] {
    const t = this.terms;
    let lo = 0,
      hi = t.length;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (t[m] < prefix) lo = m + 1;
      else hi = m;
    }
    // From lo on, the terms starting with `prefix` come first (they sort right after it).
    let a = lo,
      b = t.length;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (t[m].startsWith(prefix)) a = m + 1;
      else b = m;
    }
    return [lo, a];
  }

  /**
   * Ordinals of up to `limit` contacts matching `text`, unranked. One token: the first contacts along
   * its postings. More: the intersection of the two tokens with the fewest postings (marked in a
   * bitset, probed along the other's postings), or, when the fewest are so few that checking each is
   * cheaper than walking the second token's postings, each of those checked; the per-candidate check
   * settles "a different token each" and any further tokens.
   */
  search(text: string, limit: number): number[] {
    const tokens = queryTokens(text);
    if (tokens.length === 0 || limit <= 0) return [];
    // Per typed token, its term ranges as flat [lo, hi, lo, hi, …], and its number of postings.
    const ranges: number[][] = [];
    const postings: number[] = [];
    for (let t = 0; t < tokens.length; t++) {
      const list: number[] = [];
      let count = 0;
      for (const key of queryKeys(tokens[t])) {
        const [lo, hi] = this.prefixRange(key);
        if (lo < hi) {
          list.push(lo, hi);
          count += this.termStart[hi] - this.termStart[lo];
        }
      }
      if (list.length === 0) return []; // a token nothing starts with
      ranges.push(list);
      postings.push(count);
    }
    const order = Array.from(postings.keys()).sort((a, b) => postings[a] - postings[b]);
    const fewest = ranges[order[0]];
    const out: number[] = [];
    const bits = this.bits;
    if (
      tokens.length === 1 ||
      postings[order[0]] * CHECK_COST < 2 * postings[order[0]] + postings[order[1]]
    ) {
      const seen = this.seen;
      seen.length = 0;
      for (let k = 0; k < fewest.length && out.length < limit; k += 2) {
        for (let p = this.termStart[fewest[k]], end = this.termStart[fewest[k + 1]]; p < end; p++) {
          const c = this.ordinals[p];
          if (c === NO_CONTACT || bits[c >>> 5] & (1 << (c & 31))) continue;
          bits[c >>> 5] |= 1 << (c & 31); // seen: a contact can hold several terms of the range
          seen.push(c);
          if (tokens.length > 1 && !this.assigns(c, ranges)) continue;
          out.push(c);
          if (out.length >= limit) break;
        }
      }
      for (const c of seen) bits[c >>> 5] = 0;
      return out;
    }
    this.mark(fewest);
    const next = ranges[order[1]];
    for (let k = 0; k < next.length && out.length < limit; k += 2) {
      for (let p = this.termStart[next[k]], end = this.termStart[next[k + 1]]; p < end; p++) {
        const c = this.ordinals[p];
        if (c === NO_CONTACT || !(bits[c >>> 5] & (1 << (c & 31)))) continue;
        bits[c >>> 5] &= ~(1 << (c & 31)); // met once: not again
        if (!this.assigns(c, ranges)) continue;
        out.push(c);
        if (out.length >= limit) break;
      }
    }
    this.clear(fewest);
    return out;
  }

  /** One bit per contact, all clear between queries. */
  private readonly bits: Uint32Array;
  /** The contacts the per-candidate path has met (their bits to clear). */
  private readonly seen: number[] = [];

  private mark(list: number[]): void {
    for (let k = 0; k < list.length; k += 2) {
      for (let p = this.termStart[list[k]], end = this.termStart[list[k + 1]]; p < end; p++) {
        const c = this.ordinals[p];
        if (c !== NO_CONTACT) this.bits[c >>> 5] |= 1 << (c & 31);
      }
    }
  }

  private clear(list: number[]): void {
    for (let k = 0; k < list.length; k += 2) {
      for (let p = this.termStart[list[k]], end = this.termStart[list[k + 1]]; p < end; p++) {
        const c = this.ordinals[p];
        if (c !== NO_CONTACT) this.bits[c >>> 5] = 0;
      }
    }
  }

  /** Entries of the candidate being checked that a typed token has taken (reused: no garbage per candidate). */
  private used = new Uint8Array(256);

  /** Whether each typed token can take a different entry of contact `c` (backtracking: a few tokens, a few dozen entries). */
  private assigns(c: number, ranges: number[][]): boolean {
    const from = this.contactStart[c],
      to = this.contactStart[c + 1];
    if (ranges.length > to - from) return false;
    if (this.used.length < to - from) this.used = new Uint8Array(to - from);
    this.used.fill(0, 0, to - from);
    return this.place(0, from, to, ranges);
  }

  private place(t: number, from: number, to: number, ranges: number[][]): boolean {
    if (t === ranges.length) return true;
    const list = ranges[t];
    for (let i = from; i < to; i++) {
      if (this.used[i - from]) continue;
      const rank = this.ranks[i];
      let fits = false;
      for (let k = 0; k < list.length && !fits; k += 2)
        fits = rank >= list[k] && rank < list[k + 1];
      if (!fits) continue;
      this.used[i - from] = 1;
      if (this.place(t + 1, from, to, ranges)) return true;
      this.used[i - from] = 0;
    }
    return false;
  }
}

const NO_CONTACT = 0xffffffff;
/** A candidate check (a contact's few dozen entries, away in memory) against a step along a posting list, roughly. */
const CHECK_COST = 20;
