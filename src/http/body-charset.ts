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

/** A decoder for a body that starts with `head`; the WHATWG decoder drops a BOM of its own encoding, as the runtime's reader does. */
function bodyDecoder(contentType: string | undefined, head: Uint8Array): TextDecoder {
  const label = bomLabel(head) ?? charsetLabel(contentType) ?? 'utf-8';
  try {
    return new TextDecoder(label);
  } catch {
    return new TextDecoder('utf-8');
  }
}

/** The whole body as text. UTF-8 without a BOM (nearly every request) takes Buffer's native path. */
export function decodeBody(contentType: string | undefined, body: Buffer): string {
  const decoder = bodyDecoder(contentType, body);
  if (decoder.encoding === 'utf-8' && bomLabel(body) === undefined) return body.toString('utf8');
  return decoder.decode(body);
}
