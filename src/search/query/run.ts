/**
 * One query's state, passed to every step instead of module-level scratch and long parameter lists:
 * the index, the compiled tokens, which ordinals are admitted (`within`, `among`), the work counted
 * (work.ts), and scratch memory borrowed from the index's pool (reused by every query on that
 * index: searches run one at a time, synchronously, and each step leaves the scratch as it found it).
 */
import type { Checkpoint } from '../../security/deadline.ts';
import { Marks, bitsFor } from '../bits.ts';
import { OrderedBits } from './ordered-bits.ts';
import { TUNING } from '../heads.ts';
import type { SearchIndex } from '../search-index.ts';
import { Work } from '../work.ts';
import type { QueryToken } from '../tokenize.ts';
import { compileAll, type Compiled } from './compile.ts';

/** Which ordinals the caller admits (a filter), or undefined for all. */
export type Within = ((ord: number) => boolean) | undefined;

/**
 * The ordinals `within` admits, when the caller knows them (a filtered selection): how many, and
 * their list, ascending, made only when a bucket is read through them.
 */
export interface Admitted {
  readonly count: number;
  list(): ArrayLike<number>;
}

/**
 * A token typed more than once (identical objects: compileAll): per token, the index of its first
 * occurrence (`first`), at that index how often it was typed (`times`: a contact needs that many
 * options for it), and the index of its previous occurrence or -1 (`prev`). The copies of a token
 * take their contact tokens in ascending source order — one arrangement of each choice instead of
 * all its permutations (which is what made "a a a a a a" cost thousands of nodes per contact).
 */
export interface Repeats {
  readonly first: Int32Array;
  readonly times: Int32Array;
  readonly prev: Int32Array;
}

function repeatsOf(toks: readonly Compiled[], into: Repeats): Repeats {
  // Plain loops: Int32Array.from with a callback was a microsecond of every several-token query.
  const n = toks.length;
  const { first, times, prev } = into;
  times.fill(0, 0, n);
  for (let i = 0; i < n; i++) {
    first[i] = toks.indexOf(toks[i]);
    times[first[i]]++;
    prev[i] = i === 0 ? -1 : toks.lastIndexOf(toks[i], i - 1);
  }
  return into;
}

/**
 * Memory a query borrows from its index. All zero between uses where that matters (the bitmaps):
 * each user leaves it as it found it.
 */
export class Scratch {
  /** The options of every typed token of one contact, contiguous per token: forward-index entry and flags (evaluate.ts). */
  optEntry = new Int32Array(1024);
  optFlags = new Uint8Array(1024);
  /** The options' sources (contact tokens) and display positions, decoded from the entries' steps (index/base.ts) for a several-token query. */
  optSrc = new Int32Array(1024);
  optPos = new Int32Array(1024);

  readonly optFrom: number[] = [];
  readonly optTo: number[] = [];
  /** The matching's state (evaluate.ts): per contact token its typed token and visit round, per typed token its option. */
  owner = new Int32Array(64);
  seen = new Int32Array(64);
  choice = new Int32Array(16);
  private readonly member: Uint32Array[] = [];
  private ordBits?: OrderedBits;
  private marks?: Marks;

  /** Room for `n` options. */
  options(n: number): void {
    if (this.optEntry.length < n) {
      this.optEntry = new Int32Array(n * 2);
      this.optFlags = new Uint8Array(this.optEntry.length);
      this.optSrc = new Int32Array(this.optEntry.length);
      this.optPos = new Int32Array(this.optEntry.length);
    }
  }

  /** Room for a matching of `n` typed tokens over `sources` contact tokens, reset (owner and seen -1). */
  matching(n: number, sources: number): void {
    if (this.owner.length < sources) {
      this.owner = new Int32Array(sources * 2);
      this.seen = new Int32Array(sources * 2);
    }
    if (this.choice.length < n) this.choice = new Int32Array(n * 2);
    this.owner.fill(-1, 0, sources);
    this.seen.fill(-1, 0, sources);
  }

  /** The bitmap of base ordinals of a query's k-th marked bucket (query/buckets.ts BucketMarks). */
  memberBits(k: number, n: number): Uint32Array {
    if (!this.member[k] || this.member[k].length < (n + 31) >>> 5) this.member[k] = bitsFor(n);
    return this.member[k];
  }

  /**
   * A query's Repeats, read up to its token count: three arrays a query were ~0.6 KB of a type-ahead
   * request's garbage. One run at a time per index uses them (a segment's run has its index's own).
   */
  repeats(n: number): Repeats {
    if (!this.rep || this.rep.first.length < n)
      this.rep = { first: new Int32Array(n), times: new Int32Array(n), prev: new Int32Array(n) };
    return this.rep;
  }
  private rep?: Repeats;

  /** A bitmap of base ordinals read back in order (a driver bucket, top-multi.ts). */
  ordinalBits(n: number): OrderedBits {
    if (!this.ordBits || this.ordBits.capacity < n) this.ordBits = new OrderedBits(n);
    return this.ordBits;
  }

  /** A bitmap being filled for a match set (match-set.ts). */
  matchMarks(n: number): Marks {
    if (!this.marks || this.marks.bits.length < (n + 31) >>> 5) this.marks = new Marks(n);
    return this.marks;
  }
}

const pool = new WeakMap<SearchIndex, Scratch>();

export function scratchOf(index: SearchIndex): Scratch {
  let s = pool.get(index);
  if (!s) pool.set(index, (s = new Scratch()));
  return s;
}

export class QueryRun {
  /** The typed tokens compiled, in typed order (a token typed again is the same object). */
  readonly toks: readonly Compiled[];
  readonly work: Work;
  readonly scratch: Scratch;
  private rep?: Repeats;

  constructor(
    readonly index: SearchIndex,
    readonly query: readonly QueryToken[],
    readonly within: Within,
    readonly among: Admitted | undefined,
    budget?: Checkpoint,
  ) {
    this.toks = compileAll(index, query);
    this.work = new Work(index.ordinalCount, budget);
    this.scratch = scratchOf(index);
  }

  /** See Repeats; made on first need. */
  get repeats(): Repeats {
    return (this.rep ??= repeatsOf(this.toks, this.scratch.repeats(this.toks.length)));
  }

  /** Whether a bucket of `postings` is read through the admitted ordinals (fewer, by TUNING.amongFactor). */
  throughAdmitted(postings: number): boolean {
    return this.among !== undefined && this.among.count * TUNING.amongFactor < postings;
  }

  /**
   * Calls `f` per admitted base ordinal, ascending, until it returns true (a delta ordinal ends the
   * list: the delta is not in the base postings).
   */
  eachAdmitted(f: (ord: number) => boolean): void {
    const list = this.among!.list();
    const baseSize = this.index.base.n;
    for (let i = 0; i < list.length && list[i] < baseSize; i++) if (f(list[i])) return;
  }
}
