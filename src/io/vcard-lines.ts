/**
 * vCard 3.0 / 4.0 content lines (RFC 2425 / RFC 6350 §3.3–3.4): unfolding, `group.NAME;param=…:value`,
 * quoted parameter values, and the value escapes `\\ \n \, \;`. Written here rather than taken from
 * ical.js, which we used before: ical.js splits N / ADR / ORG at a `;` that follows an escaped
 * backslash (`C\\;` loses the component boundary) and leaves `\;` escaped in text, so values ending in
 * a backslash or holding a semicolon did not come back from our own export (the round-trip property
 * test found it). The `vcf` package splits and unescapes nothing. Mapping lines to fields: vcard.ts.
 */

export interface ContentLine {
  group?: string;
  /** Lower case. */
  name: string;
  /** Lower-case keys; bare parameters (`TEL;CELL`) are TYPE values; comma lists split. */
  params: Record<string, string[]>;
  /** As written, escapes and all. */
  raw: string;
}

/** The card's content lines; throws naming the line that is not one. */
export function contentLines(card: string): ContentLine[] {
  const out: ContentLine[] = [];
  for (const line of card
    .replace(/\r\n|\r/g, '\n')
    .replace(/\n[ \t]/g, '')
    .split('\n')) {
    if (!line.trim()) continue;
    const head = /^(?:([A-Za-z0-9-]+)\.)?([A-Za-z0-9-]+)/.exec(line);
    if (!head) throw new Error(`"${line.slice(0, 40)}" is not a vCard line`);
    let i = head[0].length;
    const params: Record<string, string[]> = {};
    while (line[i] === ';') {
      const name = /^[^=;:]*/.exec(line.slice(i + 1))![0];
      i += 1 + name.length;
      const key = name.toLowerCase();
      if (line[i] !== '=') {
        (params.type ??= []).push(name);
        continue;
      }
      i++;
      for (;;) {
        let v: string;
        if (line[i] === '"') {
          const end = line.indexOf('"', i + 1);
          if (end < 0) throw new Error(`"${line.slice(0, 40)}" has an unclosed quote`);
          v = line.slice(i + 1, end);
          i = end + 1;
        } else {
          v = /^[^,;:]*/.exec(line.slice(i))![0];
          i += v.length;
        }
        for (const part of v.split(',')) (params[key] ??= []).push(part);
        if (line[i] !== ',') break;
        i++;
      }
    }
    if (line[i] !== ':') throw new Error(`"${line.slice(0, 40)}" is not a vCard line`);
    out.push({ group: head[1], name: head[2].toLowerCase(), params, raw: line.slice(i + 1) });
  }
  return out;
}

/** A text value with its escapes undone (`\n` is a line break; an unknown escape is kept as written). */
export function unescapeText(s: string): string {
  return s.replace(/\\([\\,;:nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** A value split at the separators that are not escaped, each piece unescaped (N, ADR, ORG: `;`; CATEGORIES: `,`). */
export function splitText(s: string, sep: ';' | ','): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && i + 1 < s.length) {
      cur += s[i] + s[i + 1];
      i++;
    } else if (s[i] === sep) {
      out.push(unescapeText(cur));
      cur = '';
    } else cur += s[i];
  }
  out.push(unescapeText(cur));
  return out;
}
