/**
 * What a database still has to read from its store at the next catch-up: listed contacts, the saved
 * searches, or everything. Kept across a failed catch-up, since the feed position has moved past it.
 */
export interface Pending {
  ids: Set<string>;
  saved: boolean;
  all: boolean;
}

export class PendingReads {
  private pending: Pending = { ids: new Set(), saved: false, all: false };

  /** Notes something to read; returns whether anything is pending now. */
  note(ids: Iterable<string>, saved: boolean, all: boolean): boolean {
    const p = this.pending;
    p.saved ||= saved;
    p.all ||= all;
    if (p.all) p.ids.clear();
    else for (const id of ids) p.ids.add(id);
    return p.saved || p.all || p.ids.size > 0;
  }

  /** What is pending, handed over: nothing is pending after it. */
  take(): Pending {
    const p = this.pending;
    this.pending = { ids: new Set(), saved: false, all: false };
    return p;
  }
}
