/**
 * vCard 2.1 (what Android and older phones write) → vCard 3.0 text, so one reader (vcard-lines.ts)
 * serves every version; 2.1's folding and encodings differ from 3.0's. Done per content line: QUOTED-PRINTABLE values (with `=` soft line breaks) decoded in their CHARSET, bare
 * parameters made `TYPE=`, 2.1 folding undone, and the decoded text escaped as 3.0 wants it.
 */

const ENCODINGS = new Set(['QUOTED-PRINTABLE', 'BASE64', '8BIT', '7BIT', 'B']);
/** Properties whose value has `;`-separated components (kept as separators). */
const STRUCTURED = new Set(['N', 'ADR', 'ORG']);

function decodeQuotedPrintable(value: string, charset: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(value.slice(i + 1, i + 3))) {
      bytes.push(parseInt(value.slice(i + 1, i + 3), 16));
      i += 2;
    } else for (const b of Buffer.from(ch, 'utf8')) bytes.push(b);
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset || 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(Uint8Array.from(bytes));
}

/** A decoded 2.1 value escaped for 3.0: line breaks and commas; `;` only where it is not a separator. */
function escape30(value: string, name: string): string {
  const v = value
    .replace(/\\/g, '\\\\')
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/,/g, '\\,');
  // 2.1 writes a literal ';' inside a component as '\;', which the first replace doubled.
  return STRUCTURED.has(name)
    ? v.replace(/\\\\;/g, '\\;')
    : v.replace(/\\\\;/g, '\\;').replace(/(?<!\\);/g, '\\;');
}

/** One card's text in 2.1 syntax → the same card in 3.0 syntax. */
export function vcard21to30(block: string): string {
  const physical = block.split(/\r\n|\r|\n/);
  const logical: string[] = [];
  for (let i = 0; i < physical.length; i++) {
    let line = physical[i];
    const head = line.slice(0, line.indexOf(':') + 1).toUpperCase();
    if (/QUOTED-PRINTABLE/.test(head)) {
      while (line.endsWith('=') && i + 1 < physical.length)
        line = line.slice(0, -1) + physical[++i].replace(/^[ \t]/, '');
    } else {
      while (i + 1 < physical.length && /^[ \t]/.test(physical[i + 1]))
        line += physical[++i].replace(/^[ \t]+/, '');
    }
    if (line.trim()) logical.push(line);
  }
  return (
    logical
      .map((line) => {
        const colon = line.indexOf(':');
        if (colon < 0) return line;
        const [nameAndGroup, ...params] = line.slice(0, colon).split(';');
        const name = nameAndGroup.replace(/^.*\./, '').toUpperCase();
        if (name === 'VERSION') return 'VERSION:3.0';
        if (name === 'BEGIN' || name === 'END') return line;
        const types: string[] = [];
        const kept: string[] = [];
        let encoding = '',
          charset = '';
        for (const p of params) {
          const eq = p.indexOf('=');
          const key = eq < 0 ? '' : p.slice(0, eq).toUpperCase();
          const val = eq < 0 ? p : p.slice(eq + 1);
          if (key === 'ENCODING' || (!key && ENCODINGS.has(val.toUpperCase())))
            encoding = val.toUpperCase();
          else if (key === 'CHARSET') charset = val;
          else if (key === 'TYPE' || !key) types.push(val);
          else kept.push(`${key}=${val}`);
        }
        let value = line.slice(colon + 1);
        if (encoding === 'QUOTED-PRINTABLE')
          value = escape30(decodeQuotedPrintable(value, charset), name);
        else if (charset || encoding === '8BIT') value = escape30(value, name);
        if (encoding === 'BASE64' || encoding === 'B') kept.push('ENCODING=b');
        if (types.length) kept.unshift(`TYPE=${types.join(',')}`);
        return [nameAndGroup, ...kept].join(';') + ':' + value;
      })
      .join('\r\n') + '\r\n'
  );
}
