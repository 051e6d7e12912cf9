/**
 * Query strings and form bodies as ASP.NET reads them: `+` is a space, `%XX` are UTF-8 bytes and
 * `%uXXXX` a UTF-16 code unit (generated .NET HttpGet/HttpPost proxies send non-ASCII that way);
 * names match case-insensitively and a repeated name arrives as the values joined with `,`
 * (golden README "HTTP GET / HTTP POST").
 */

/** Decodes one component; malformed escapes are kept literally, as ASP.NET's HttpUtility does. */
export function decodeComponent(s: string): string {
  if (!/[%+]/.test(s)) return s;
  // The common case, well-formed UTF-8 escapes and no %uXXXX, is what decodeURIComponent reads; it
  // throws on anything else, which the loop below reads the lenient way.
  if (!s.includes('%u')) {
    try {
      return decodeURIComponent(s.replaceAll('+', ' '));
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
  if (!encoded) return fields;
  for (const pair of encoded.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = decodeComponent(eq < 0 ? pair : pair.slice(0, eq)).toLowerCase();
    const value = eq < 0 ? '' : decodeComponent(pair.slice(eq + 1));
    const prev = fields.get(name);
    fields.set(name, prev === undefined ? value : `${prev},${value}`);
  }
  return fields;
}
