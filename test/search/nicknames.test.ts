/**
 * The nickname data (src/search/nicknames-data/, read by nicknames.ts). Properties checked:
 * 1. The common English pairs both ways (CONTRACT §4: Bob ↔ Robert, Bill ↔ William, Liz ↔
 *    Elizabeth, Peggy ↔ Margaret) and the Demo locales' diminutives (Sasha ↔ Aleksandr, саша ↔
 *    александр, every row of locales.csv), met by prefix as search meets them ("bill" in "billy").
 * 2. Bounded: at most MAX_NICKNAMES per name; none is a prefix of the name or of another kept one
 *    (prefix matching finds those through it).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { MAX_NICKNAMES, nicknamesOf } from '../../src/search/nicknames.ts';
import { normalize } from '../../src/search/normalize.ts';

/** Whether typing `typed` meets one of `name`'s nicknames by prefix, as search does. */
const has = (name: string, typed: string) =>
  (nicknamesOf(name) ?? []).some((n) => n.startsWith(typed));

test('1. common pairs both ways, English and the Demo locales', () => {
  for (const [full, nick] of [
    ['robert', 'bobby'],
    ['william', 'bill'],
    ['elizabeth', 'liz'],
    ['margaret', 'peggy'],
    ['aleksandr', 'sasha'],
    ['александр', 'саша'],
  ]) {
    assert.ok(has(full, nick), `${full} → ${nick}`);
    assert.ok(has(nick, full), `${nick} → ${full}`);
  }
  assert.ok(has('bob', 'robert'));
  // Every row of locales.csv is read, both ways.
  const rows = readFileSync(
    new URL('../../src/search/nicknames-data/locales.csv', import.meta.url),
    'utf8',
  )
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => l.split(',').map((s) => normalize(s.trim())));
  assert.ok(rows.length > 50, `${rows.length} rows`);
  for (const [name, ...nicks] of rows)
    for (const n of nicks)
      if (n && n !== name && !name.startsWith(n))
        assert.ok(
          has(n, name) || (nicknamesOf(n) ?? []).some((m) => name.startsWith(m)),
          `${n} → ${name}`,
        );
});

test('2. bounded, and no nickname kept that prefix matching finds anyway', () => {
  for (const name of ['robert', 'william', 'elizabeth', 'margaret', 'aleksandr', 'bob', 'liz']) {
    const nicks = nicknamesOf(name) ?? [];
    assert.ok(nicks.length > 0 && nicks.length <= MAX_NICKNAMES, `${name}: ${nicks.length}`);
    for (const n of nicks) {
      assert.ok(!name.startsWith(n), `${name}: ${n} is its prefix`);
      assert.ok(!nicks.some((m) => m !== n && m.startsWith(n)), `${name}: ${n} starts another`);
    }
  }
});
