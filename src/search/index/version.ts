/**
 * The version of the code that decides what an index holds: a hash of the source of tokenising,
 * normalising, the field schema, the build and the image layout, and of the thresholds a build reads;
 * also of what makes a name's other spellings (CONTRACT §4: the variant sources, their data files and
 * the versions of the libraries they call), which are index entries too.
 * A snapshot (database/snapshot.ts) written by other code is not loaded: a change to how text is
 * tokenised would otherwise serve an index that no longer matches what a build makes.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { TUNING } from '../heads.ts';
import { TABLE_TUNING } from '../table/dictionary.ts';

/** Relative to this file; test/search/index-version.test.ts checks that it holds every module tokenising imports. */
export const SOURCES = [
  '../normalize.ts',
  '../tokenize.ts',
  '../contact-tokens.ts',
  '../heads.ts',
  '../bits.ts',
  './base.ts',
  './build.ts',
  '../sort-strings.ts',
  './loader.ts',
  './spans.ts',
  './image.ts',
  './image-file.ts',
  './terms.ts',
  '../table/contact-table.ts',
  '../table/dictionary.ts',
  '../table/digit-terms.ts',
  '../table/growable.ts',
  '../table/lengths.ts',
  '../table/id-hash.ts',
  '../table/ranks.ts',
  '../../fields/schema.ts',
  '../../fields/contact.ts',
  // A name's other spellings (contact-tokens.ts indexes them as variant entries).
  '../variants.ts',
  '../transliterate.ts',
  '../readings.ts',
  '../nicknames.ts',
  '../nicknames-data/names.csv',
  '../nicknames-data/locales.csv',
  '../latin-names-data/names.csv',
];
/** Libraries whose output is indexed (a new any-ascii may romanise a letter otherwise). */
const LIBRARIES = ['any-ascii', 'wanakana'];

/** The installed version of package `name` (its package.json, found above its entry point). */
function versionOf(name: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === name) return pkg.version ?? '';
    } catch {
      // no package.json here: look further up
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`version.ts: no package.json for ${name}`);
    dir = up;
  }
}

let sources: string | undefined | null;

/** The hash (hex), or undefined when the sources cannot be read (then no snapshot is trusted). */
export function indexCodeVersion(): string | undefined {
  if (sources === undefined) {
    try {
      const h = createHash('sha256');
      for (const f of SOURCES) h.update(readFileSync(new URL(f, import.meta.url)));
      for (const name of LIBRARIES) h.update(`${name}@${versionOf(name)}`);
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
