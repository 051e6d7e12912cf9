/**
 * The deterministic demo data: realistic contacts in several locales (diacritics, Greek, Cyrillic,
 * Japanese and Chinese names included; Japanese readings and German names in both spellings from
 * spellings.ts). Faker draws pools once per locale; a seeded PRNG combines
 * them, so a million contacts generate in seconds and the same seed always gives the same data.
 */
import {
  Faker,
  base,
  de,
  el,
  en,
  en_US,
  es,
  fr,
  ja,
  pl,
  ru,
  sv,
  zh_CN,
  type LocaleDefinition,
} from '@faker-js/faker';
import { deriveDisplayName, type Contact } from '../fields/contact.ts';
import { normalize } from '../search/normalize.ts';
import { respell } from './spellings.ts';

interface LocalePool {
  country: string;
  first: string[];
  last: string[];
  cities: [string, string, string][]; // city, region, postal code
  streets: string[];
  companies: string[];
  titles: string[];
  phone: (r: () => number) => string;
  domains: string[];
}

const TAGS = [
  'customer',
  'supplier',
  'partner',
  'press',
  'vip',
  'newsletter',
  'lead',
  'board',
  'alumni',
  'volunteer',
  'speaker',
  'investor',
];

/** mulberry32: small, fast, seedable. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const digits = (r: () => number, n: number) =>
  Array.from({ length: n }, () => Math.floor(r() * 10)).join('');

const LOCALES: [string, LocaleDefinition[], number, (r: () => number) => string][] = [
  [
    'US',
    [en_US, en, base],
    30,
    (r) => `+1 (${200 + Math.floor(r() * 700)}) ${digits(r, 3)}-${digits(r, 4)}`,
  ],
  ['GB', [en, base], 8, (r) => `+44 20 ${digits(r, 4)} ${digits(r, 4)}`],
  ['DE', [de, en, base], 14, (r) => `+49 ${30 + Math.floor(r() * 60)} ${digits(r, 7)}`],
  [
    'FR',
    [fr, en, base],
    10,
    (r) =>
      `+33 ${1 + Math.floor(r() * 5)} ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)}`,
  ],
  [
    'ES',
    [es, en, base],
    8,
    (r) => `+34 ${600 + Math.floor(r() * 99)} ${digits(r, 3)} ${digits(r, 3)}`,
  ],
  [
    'PL',
    [pl, en, base],
    6,
    (r) => `+48 ${500 + Math.floor(r() * 99)} ${digits(r, 3)} ${digits(r, 3)}`,
  ],
  ['SE', [sv, en, base], 6, (r) => `+46 8 ${digits(r, 3)} ${digits(r, 2)} ${digits(r, 2)}`],
  ['GR', [el, en, base], 5, (r) => `+30 21 ${digits(r, 4)} ${digits(r, 4)}`],
  ['RU', [ru, en, base], 5, (r) => `+7 495 ${digits(r, 3)}-${digits(r, 2)}-${digits(r, 2)}`],
  ['JP', [ja, en, base], 4, (r) => `+81 3-${digits(r, 4)}-${digits(r, 4)}`],
  ['CN', [zh_CN, en, base], 4, (r) => `+86 10 ${digits(r, 4)} ${digits(r, 4)}`],
];

function pools(seed: number): { pool: LocalePool; weight: number }[] {
  return LOCALES.map(([country, locale, weight, phone], i) => {
    const f = new Faker({ locale });
    f.seed(seed + i);
    const many = <T>(n: number, make: () => T) => Array.from({ length: n }, make);
    return {
      weight,
      pool: {
        country,
        first: many(300, () => f.person.firstName()),
        last: many(400, () => f.person.lastName()),
        cities: many(
          120,
          () =>
            [f.location.city(), f.location.state(), f.location.zipCode()] as [
              string,
              string,
              string,
            ],
        ),
        streets: many(300, () => f.location.streetAddress()),
        companies: many(200, () => f.company.name()),
        titles: many(150, () => f.person.jobTitle()),
        phone,
        domains: many(20, () => f.internet.domainName()),
      },
    };
  });
}

const ascii = (s: string) => normalize(s).replace(/[^a-z0-9]+/g, '');

export interface GenerateOptions {
  count: number;
  seed?: number;
  /** First ContactId number (ids are `C0000001`…). */
  startAt?: number;
}

/** Yields contacts in batches, deterministically for a given seed. */
export function* generateContacts(
  { count, seed = 20261123, startAt = 1 }: GenerateOptions,
  batchSize = 10_000,
): Generator<Contact[]> {
  const weighted = pools(seed);
  const total = weighted.reduce((n, w) => n + w.weight, 0);
  const r = prng(seed);
  // A second stream for respelling (spellings.ts), so the main stream's draws stay what they were.
  const r2 = prng(seed ^ 0x9e3779b9);
  const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)];
  const epoch = Date.UTC(2020, 0, 1);
  const span = Date.UTC(2026, 10, 1) - epoch;
  let batch: Contact[] = [];
  for (let i = 0; i < count; i++) {
    let x = r() * total;
    const { pool } = weighted.find((w) => (x -= w.weight) < 0) ?? weighted[0];
    const first = pick(pool.first);
    const last = pick(pool.last);
    const middle = r() < 0.08 ? pick(pool.first) : undefined;
    const orgOnly = r() < 0.03;
    const [city, region, postal] = pick(pool.cities);
    const org = r() < 0.85 ? pick(pool.companies) : undefined;
    const local = `${ascii(first) || 'user'}.${ascii(last) || String(i)}`;
    const emails = [`${local}${r() < 0.3 ? Math.floor(r() * 100) : ''}@${pick(pool.domains)}`];
    if (r() < 0.35)
      emails.push(`${(ascii(first) || 'u')[0]}${ascii(last) || i}@${pick(pool.domains)}`);
    const phones = [pool.phone(r)];
    if (r() < 0.25) phones.push(pool.phone(r));
    const tags = TAGS.filter(() => r() < 0.12);
    const created = epoch + Math.floor(r() * span);
    const updated = created + Math.floor(r() * (epoch + span - created));
    const c: Contact = {
      ContactId: `C${String(startAt + i).padStart(7, '0')}`,
      FirstName: orgOnly ? undefined : first,
      MiddleName: orgOnly ? undefined : middle,
      LastName: orgOnly ? undefined : last,
      DisplayName: '',
      Organization: orgOnly ? (org ?? pick(pool.companies)) : org,
      JobTitle: orgOnly ? undefined : r() < 0.7 ? pick(pool.titles) : undefined,
      Emails: emails,
      Phones: phones,
      Street: pick(pool.streets),
      City: city,
      Region: region,
      PostalCode: postal,
      Country: pool.country,
      Tags: tags,
      Notes: r() < 0.1 ? 'Met at the annual conference.' : undefined,
      CreatedAt: new Date(created).toISOString(),
      UpdatedAt: new Date(updated).toISOString(),
    };
    respell(c, r2);
    c.DisplayName = deriveDisplayName(c);
    for (const k of Object.keys(c) as (keyof Contact)[]) if (c[k] === undefined) delete c[k];
    batch.push(c);
    if (batch.length === batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}
