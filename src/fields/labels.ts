/**
 * Labels of phones, emails and the address ("mobile", "work", a user's own "Mum's phone"): the words
 * vCard TYPEs, Google labels, Outlook columns and Apple's X-ABLabel use for the same thing become one
 * canonical word, so a label survives a trip through any of the formats unchanged. A label made of
 * other words is kept as the user wrote it.
 */
const WORDS: Record<string, string> = {
  cell: 'mobile',
  mobile: 'mobile',
  cellular: 'mobile',
  iphone: 'iphone',
  work: 'work',
  business: 'work',
  office: 'work',
  home: 'home',
  private: 'home',
  personal: 'home',
  fax: 'fax',
  homefax: 'home fax',
  workfax: 'work fax',
  otherfax: 'fax',
  pager: 'pager',
  main: 'main',
  other: 'other',
  car: 'car',
  text: 'text',
  video: 'video',
};

export function canonicalLabel(raw: string): string {
  // Apple wraps its own labels: "_$!<Mobile>!$_"; Google marks its built-in ones with "* ". Unwrapped
  // until nothing changes, so a label is canonical after one call (a round trip must not change it).
  let s = raw.trim();
  for (let prev = ''; prev !== s;) {
    prev = s;
    s = s
      .replace(/^_\$!<(.*)>!\$_$/s, '$1')
      .replace(/^\*\s+/, '')
      .trim();
  }
  const words = s.toLowerCase().split(/\s+/);
  if (s && words.every((w) => WORDS[w]))
    return [...new Set(words.flatMap((w) => WORDS[w].split(' ')))].join(' ');
  return s;
}

/** vCard TYPE values of a canonical label, when every word has one ("work fax" → work, fax); else undefined. */
export function labelTypes(label: string): string[] | undefined {
  const words = label.split(' ');
  const types = words.map((w) =>
    w === 'mobile' ? 'cell' : Object.values(WORDS).includes(w) && !w.includes(' ') ? w : undefined,
  );
  return label && types.every(Boolean) && canonicalLabel(label) === label
    ? (types as string[])
    : undefined;
}
