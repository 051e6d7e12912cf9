// The page's state and its URL: ?q=…&f=Field:Value&r=Field:From..To&sort=-Field&page=2&c=ContactId&cols=A,B&db=Name.
// Every view the page shows is a URL, so reload, back/forward and a shared link restore it.

export const DEFAULT_DB = 'Demo';

/** @returns {{db: string, q: string, filters: Map<string, string[]>, ranges: Map<string, [string, string]>, sort: {Field: string, Dir: 'Asc'|'Desc'}|null, page: number, contact: string|null, cols: string[]|null}} */
export function readState(search) {
  const p = new URLSearchParams(search);
  const filters = new Map();
  for (const f of p.getAll('f')) {
    const colon = f.indexOf(':');
    if (colon <= 0) continue;
    const field = f.slice(0, colon);
    const value = f.slice(colon + 1);
    const values = filters.get(field) ?? [];
    if (!values.includes(value)) values.push(value);
    filters.set(field, values);
  }
  const ranges = new Map();
  for (const r of p.getAll('r')) {
    const m = /^([^:]+):([^.]*)\.\.(.*)$/.exec(r);
    if (m && (m[2] || m[3])) ranges.set(m[1], [m[2], m[3]]);
  }
  const sort = p.get('sort');
  const page = Number.parseInt(p.get('page') ?? '1', 10);
  const cols = p.get('cols');
  return {
    db: p.get('db') || DEFAULT_DB,
    q: p.get('q') ?? '',
    filters,
    ranges,
    sort: sort
      ? { Field: sort.replace(/^-/, ''), Dir: sort.startsWith('-') ? 'Desc' : 'Asc' }
      : null,
    page: Number.isFinite(page) && page > 0 ? page : 1,
    contact: p.get('c') || null,
    cols: cols ? cols.split(',').filter(Boolean) : null,
  };
}

export function writeState(s) {
  const p = new URLSearchParams();
  if (s.db && s.db !== DEFAULT_DB) p.set('db', s.db);
  if (s.q) p.set('q', s.q);
  for (const [field, values] of s.filters) for (const v of values) p.append('f', `${field}:${v}`);
  for (const [field, [from, to]] of s.ranges) p.append('r', `${field}:${from}..${to}`);
  if (s.sort) p.set('sort', `${s.sort.Dir === 'Desc' ? '-' : ''}${s.sort.Field}`);
  if (s.page > 1) p.set('page', String(s.page));
  if (s.cols) p.set('cols', s.cols.join(','));
  if (s.contact) p.set('c', s.contact);
  const text = p.toString();
  return text ? `?${text}` : '';
}

/** The filters as GetSearchResults takes them: values chosen (In) and date ranges (an open end is Gte or Lte). */
export function filterList(filters, ranges = new Map()) {
  const list = [...filters]
    .filter(([, v]) => v.length)
    .map(([Field, Values]) => ({ Field, Op: 'In', Values }));
  for (const [Field, [from, to]] of ranges) {
    if (from && to) list.push({ Field, Op: 'Between', Values: [from, to] });
    else if (from) list.push({ Field, Op: 'Gte', Values: [from] });
    else if (to) list.push({ Field, Op: 'Lte', Values: [to] });
  }
  return list;
}

/** How many filters are chosen. */
export function filterCount(s) {
  return [...s.filters.values()].reduce((n, v) => n + v.length, 0) + s.ranges.size;
}
