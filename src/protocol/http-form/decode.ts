/**
 * Query strings and form bodies as ASP.NET reads them: `+` is a space, `%XX` are UTF-8 bytes and
 * `%uXXXX` a UTF-16 code unit (generated .NET HttpGet/HttpPost proxies send non-ASCII that way);
 * names match case-insensitively and a repeated name arrives as the values joined with `,`
 * (golden README "HTTP GET / HTTP POST").
 */
import { nextTurn } from '../../next-turn.ts';

/** Decodes one component; malformed escapes are kept literally, as ASP.NET's HttpUtility does. */
export function decodeComponent(s: string): string {
  if (!/[%+]/.test(s)) return s;
  // The common case, well-formed UTF-8 escapes and no %uXXXX, is what decodeURIComponent reads; it
  // throws on anything else, which the loop below reads the lenient way.
  if (!s.includes('%u')) {
    try {
      return decodeURIComponent(s.split('+').join(' ')); // split/join: replaceAll is ~5x slower over millions of '+'
    } catch {
      // malformed escapes or bytes that are not UTF-8
    }
  }
  return decodeLenient(s);
}

/** decodeComponent's reading of every input, escape by escape (exported for the differential test). */
export function decodeLenient(s: string): string {
  let out = '';
  let bytes: number[] = [];
  const flush = () => {
    if (bytes.length) {
      out += Buffer.from(bytes).toString('utf8');
      bytes = [];
    }
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '+') {
      flush();
      out += ' ';
    } else if (c === '%' && s[i + 1] === 'u' && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) {
      flush();
      out += String.fromCharCode(parseInt(s.slice(i + 2, i + 6), 16));
      i += 5;
    } else if (c === '%' && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      flush();
      out += c;
    }
  }
  flush();
  return out;
}

/** Lower-cased name → value (repeats joined with `,`). */
export function parseFields(encoded: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const [name, value] of pairs(encoded)) add(fields, name, decodeComponent(value));
  return fields;
}

/** Characters of a value decoded between two turns of the event loop (a few milliseconds' work). */
const SLICE_CHARS = 128 * 1024;

/**
 * parseFields for a large body (a form ProcessRequest may carry 64 MiB): a long value is decoded a
 * slice at a time, letting the event loop through between slices. Read in one go, a 16 MiB form
 * body held every other client for 6 s on the 2-core VM. The result is parseFields'.
 */
export async function parseFieldsInSlices(encoded: string): Promise<Map<string, string>> {
  const fields = new Map<string, string>();
  for (const [name, value] of pairs(encoded)) {
    if (value.length <= SLICE_CHARS) {
      add(fields, name, decodeComponent(value));
      continue;
    }
    let out = '';
    for (let at = 0; at < value.length;) {
      const to = safeCut(value, at + SLICE_CHARS);
      out += decodeComponent(value.slice(at, to));
      at = to;
      await nextTurn();
    }
    add(fields, name, out);
  }
  return fields;
}

/** The name=value pairs of an encoded form, names decoded and lower-cased, values still encoded. */
function* pairs(encoded: string): Generator<[string, string]> {
  if (!encoded) return;
  for (const pair of encoded.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = decodeComponent(eq < 0 ? pair : pair.slice(0, eq)).toLowerCase();
    yield [name, eq < 0 ? '' : pair.slice(eq + 1)];
  }
}

function add(fields: Map<string, string>, name: string, value: string): void {
  const prev = fields.get(name);
  fields.set(name, prev === undefined ? value : `${prev},${value}`);
}

const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);
const byteEscapeAt = (s: string, j: number) => s[j] === '%' && isHex(s[j + 1]) && isHex(s[j + 2]);
const unitEscapeAt = (s: string, j: number) =>
  s[j] === '%' && s[j + 1] === 'u' && /^[0-9a-fA-F]{4}$/.test(s.slice(j + 2, j + 6));

/**
 * The first index from `i` where a value can be cut so that decoding the two parts and joining them
 * reads as decoding the whole: not inside an escape, and not before a `%XX` of a byte that may
 * continue a UTF-8 sequence (80–FF). Before anything else decodeLenient flushes its bytes, and a
 * part decodeURIComponent refuses is read leniently, as the whole would be.
 */
export function safeCut(s: string, i: number): number {
  for (; i < s.length; i++) {
    let inside = false;
    for (let k = 1; k <= 5 && i - k >= 0; k++) {
      const j = i - k;
      if ((k <= 2 && byteEscapeAt(s, j)) || unitEscapeAt(s, j)) inside = true;
    }
    if (inside) continue;
    if (byteEscapeAt(s, i) && parseInt(s.slice(i + 1, i + 3), 16) >= 0x80) continue;
    return i;
  }
  return s.length;
}
