/**
 * What a process holds in memory of a mapped index snapshot, array by array (bench:memory): each
 * large array of the image is a mapping of its own (io/file-map.ts), and /proc/self/smaps gives the
 * Rss of each mapping — the pages the process touched (and the kernel mapped around them), which a
 * memory cap counting the page cache must keep for the queries not to wait on the disk.
 */
import { closeSync, openSync, readFileSync } from 'node:fs';
import type { ImageHeader } from '../../src/search/index/image.ts';
import { checkImageFile, type ArrayPlace } from '../../src/search/index/image-file.ts';

/** What each of an image's arrays holds, by its index in the image's arrays: "base.entTerm", "Emails.bytes", "postOff.rel". */
export function arrayNames(h: ImageHeader): string[] {
  const names: string[] = [];
  const name = (i: number | undefined, what: string) => {
    if (i !== undefined) names[i] = what;
  };
  const lengths = (l: { rel: number; marks: number }, what: string) => {
    name(l.rel, `${what}.rel`);
    name(l.marks, `${what}.marks`);
  };
  for (const [k, i] of Object.entries(h.base)) name(i, `base.${k}`);
  lengths(h.postOff, 'postOff');
  lengths(h.spanOff, 'spanOff');
  name(h.terms.bytes, 'terms.bytes');
  name(h.terms.blocks, 'terms.blocks');
  name(h.heads.all, 'heads');
  for (const c of h.columns) {
    name(c.ids, `${c.field}.ids`);
    name(c.offs, `${c.field}.offs`);
    name(c.bytes, `${c.field}.bytes`);
    name(c.ends, `${c.field}.ends`);
    name(c.times, `${c.field}.times`);
    if (c.lengths) lengths(c.lengths, `${c.field}.lengths`);
    for (const r of c.ranks) {
      name(r.rank, `${c.field}.rank.${r.order}`);
      name(r.sorted, `${c.field}.sorted.${r.order}`);
    }
  }
  name(h.idHash.slots, 'idHash.slots');
  name(h.idHash.hashes, 'idHash.hashes');
  return names;
}

/**
 * Bytes per element of image-file.ts's array types. Its own table is not exported, and that file is
 * part of the index code version (index/version.ts): exporting it would rebuild every snapshot.
 */
const BYTES = { u8: 1, u16: 2, u32: 4, i32: 4, f64: 8 } as const;
const sizeOf = ([type, length]: ArrayPlace) => length * BYTES[type];

/**
 * Every array of the image file `file`: its name and place (checkImageFile with every array left as a
 * hole: the file is read through for its CRC, no array is kept — the array layout has no reader of
 * its own outside image-file.ts, see BYTES). Once per bench:memory run, after its figures.
 */
export function imagePlaces(file: string): { names: string[]; places: ArrayPlace[] } {
  const fd = openSync(file, 'r');
  try {
    const { image, places } = checkImageFile(fd, 0);
    return { names: arrayNames(image.header), places: places.map((p) => p!) };
  } finally {
    closeSync(fd);
  }
}

/**
 * Per array of the image mapped from `file`, the bytes of it this process holds, biggest first, from
 * `smaps` (/proc/self/smaps' text); empty when none of it is mapped.
 */
export function imageHeld(
  file: string,
  smaps: string,
): { name: string; held: number; size: number }[] {
  const { names, places } = imagePlaces(file);
  const held = new Map<number, number>();
  let current: number | undefined;
  for (const line of smaps.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ ([0-9a-f]+) \S+ \d+ +(.*)$/.exec(line);
    if (head) {
      // A mapping covers its array from the page holding its first byte (io/file-map.ts mapBytes):
      // of the arrays lying wholly inside it (small ones may share its first page), the largest.
      current = undefined;
      if (head[4] !== file) continue;
      const from = parseInt(head[3], 16),
        to = from + parseInt(head[2], 16) - parseInt(head[1], 16);
      for (let i = 0; i < places.length; i++) {
        const at = places[i][2];
        if (at < from || at + sizeOf(places[i]) > to) continue;
        if (current === undefined || sizeOf(places[i]) > sizeOf(places[current])) current = i;
      }
      continue;
    }
    const rss = current === undefined ? undefined : /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) held.set(current!, (held.get(current!) ?? 0) + Number(rss[1]) * 1024);
  }
  return [...held]
    .map(([i, b]) => ({ name: names[i], held: b, size: sizeOf(places[i]) }))
    .sort((x, y) => y.held - x.held);
}

/** imageHeld of this process, or empty where there is no /proc. */
export function imageHeldHere(file: string): { name: string; held: number; size: number }[] {
  try {
    return imageHeld(file, readFileSync('/proc/self/smaps', 'utf8'));
  } catch {
    return [];
  }
}
