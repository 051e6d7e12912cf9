/**
 * The version of the code that decides what an index holds: a hash of the source of tokenising,
 * normalising, the field schema, the build and the image layout, and of the thresholds a build reads.
 * A snapshot (database/snapshot.ts) written by other code is not loaded: a change to how text is
 * tokenised would otherwise serve an index that no longer matches what a build makes.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { TUNING } from '../heads.ts';
import { TABLE_TUNING } from '../table/dictionary.ts';

const SOURCES = [
  '../normalize.ts',
  '../tokenize.ts',
  '../contact-tokens.ts',
  '../heads.ts',
  '../bits.ts',
  './base.ts',
  './build.ts',
  './loader.ts',
  './spans.ts',
  './image.ts',
  './image-file.ts',
  './terms.ts',
  '../table/contact-table.ts',
  '../table/dictionary.ts',
  '../table/digit-terms.ts',
  '../table/growable.ts',
  '../table/id-hash.ts',
  '../table/ranks.ts',
  '../../fields/schema.ts',
  '../../fields/contact.ts',
];

let sources: string | undefined | null;

/** The hash (hex), or undefined when the sources cannot be read (then no snapshot is trusted). */
export function indexCodeVersion(): string | undefined {
  if (sources === undefined) {
    try {
      const h = createHash('sha256');
      for (const f of SOURCES) h.update(readFileSync(new URL(f, import.meta.url)));
      sources = h.digest('hex');
    } catch {
      sources = null;
    }
  }
  if (sources === null) return undefined;
  return createHash('sha256')
    .update(sources)
    .update(JSON.stringify([TUNING, TABLE_TUNING]))
    .digest('hex')
    .slice(0, 32);
}
