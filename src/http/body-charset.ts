/**
 * Request bodies to text as the runtime reads them: a byte-order mark decides (UTF-8, UTF-16 LE/BE),
 * else the Content-Type `charset`, else UTF-8. Invalid bytes become U+FFFD (the binding then answers
 * what the text says); a charset no decoder knows is read as UTF-8, as before this rule.
 */

function bomLabel(head: Uint8Array): string | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return undefined;
}

function charsetLabel(contentType: string | undefined): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  return m?.[1];
}

/**
 * The encoding a Content-Type's charset names, as TextDecoder reads it (UTF-8 without one, or for
 * one no decoder knows). Kept by Content-Type: every request asks, and the regular expression's
 * match and a decoder made to ask were garbage a request. Bounded: the header comes from clients.
 */
const encodings = new Map<string, string>();
function encodingOf(contentType = ''): string {
  let e = encodings.get(contentType);
  if (e === undefined) {
    try {
      e = new TextDecoder(charsetLabel(contentType) ?? 'utf-8').encoding;
    } catch {
      e = 'utf-8';
    }
    if (encodings.size >= 64) encodings.clear();
    encodings.set(contentType, e);
  }
  return e;
}

/** The whole body as text. UTF-8 without a BOM (nearly every request) takes Buffer's native path. */
export function decodeBody(contentType: string | undefined, body: Buffer): string {
  const bom = bomLabel(body);
  // The WHATWG decoder drops a BOM of its own encoding, as the runtime's reader does.
  const encoding = bom ?? encodingOf(contentType);
  if (encoding === 'utf-8' && bom === undefined) return body.toString('utf8');
  return new TextDecoder(encoding).decode(body);
}
