/**
 * A country as people write it → ISO 3166-1 alpha-2 (CONTRACT.md §3). i18n-iso-countries holds the
 * names: English, German, French and Spanish first (the Outlook and Google exports we meet), then
 * every other language it ships, so a country's own name ("Österreich", "España", "日本") is found
 * too. Its "simple" lookup ignores case and accents. The language files load on the first name.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import countries from 'i18n-iso-countries';

const require = createRequire(import.meta.url);
const FIRST = ['en', 'de', 'fr', 'es'];
let langs: string[] | undefined;

function languages(): string[] {
  if (langs) return langs;
  const dir = join(dirname(require.resolve('i18n-iso-countries/package.json')), 'langs');
  const all = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5));
  langs = [...FIRST, ...all.filter((l) => !FIRST.includes(l)).sort()];
  for (const l of langs) countries.registerLocale(require(join(dir, `${l}.json`)));
  return langs;
}

/** The alpha-2 code of `text` (a code of 2 or 3 letters, or a name in a known language), or undefined. */
export function countryCode(text: string): string | undefined {
  const s = text.trim();
  if (/^[A-Za-z]{2}$/.test(s) && countries.isValid(s.toUpperCase())) return s.toUpperCase();
  if (/^[A-Za-z]{3}$/.test(s)) {
    const code = countries.alpha3ToAlpha2(s.toUpperCase());
    if (code) return code;
  }
  for (const l of languages()) {
    const code = countries.getSimpleAlpha2Code(s, l);
    if (code) return code;
  }
  return undefined;
}
