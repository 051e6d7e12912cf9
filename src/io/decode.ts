import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';

/** The encoding a byte-order mark at the start of `bytes` names, if any. */
function bomEncoding(bytes: Uint8Array): 'UTF-8' | 'UTF-16LE' | 'UTF-16BE' | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'UTF-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'UTF-16LE';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'UTF-16BE';
  return undefined;
}

/** File bytes to text: BOMs for UTF-8 / UTF-16 LE / BE, else UTF-8, else Windows-1252 (what spreadsheet exports use). */
export function decodeBytes(bytes: Uint8Array): { text: string; encoding: string } {
  const bom = bomEncoding(bytes);
  if (bom) return { text: new TextDecoder(bom.toLowerCase()).decode(bytes), encoding: bom }; // the decoder drops the BOM
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'UTF-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'Windows-1252' };
  }
}

/** The text `content` carries as base64 (decoded as decodeBytes does); undefined when it is not base64. */
export function base64Text(content: string): string | undefined {
  if (!/^[A-Za-z0-9+/=\s_-]*$/.test(content)) return undefined;
  return decodeBytes(Buffer.from(content, 'base64')).text;
}

/**
 * Where to end a slice of `s` near `end` so that it holds whole characters: one past `end` when a
 * surrogate pair's first half is at `end - 1` (a slice ending there would be encoded with a lone half).
 */
export function wholeCharEnd(s: string, end: number): number {
  if (end >= s.length) return s.length;
  const last = s.charCodeAt(end - 1);
  return last >= 0xd800 && last <= 0xdbff ? end + 1 : end;
}

/** Bytes of `b` up to the last complete UTF-8 sequence: a read chunk may end inside a character. */
function completeUtf8(b: Buffer): number {
  for (let back = 1; back <= Math.min(4, b.length); back++) {
    const x = b[b.length - back];
    if (x < 0x80) return b.length;
    if (x >= 0xc0) return (x >= 0xf0 ? 4 : x >= 0xe0 ? 3 : 2) > back ? b.length - back : b.length;
  }
  return b.length;
}

/** decodeBytes' choice for a file, read in chunks (UTF-8 is checked natively, nothing is decoded). */
export async function fileEncoding(path: string): Promise<string> {
  let carry: Buffer = Buffer.alloc(0),
    first = true;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    if (first) {
      first = false;
      const bom = bomEncoding(chunk);
      if (bom) return bom;
    }
    const b = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    const end = completeUtf8(b);
    if (!isUtf8(b.subarray(0, end))) return 'Windows-1252';
    carry = b.subarray(end);
  }
  return carry.length ? 'Windows-1252' : 'UTF-8';
}

/**
 * A file's text as it is read, in its detected encoding: UTF-8 as the read Buffers (the CSV parser
 * decodes them and drops the BOM), other encodings decoded chunk by chunk. `onBytes` sees each chunk's size.
 */
export async function* fileChunks(
  path: string,
  onBytes: (n: number) => void = () => {},
): AsyncGenerator<string | Buffer> {
  const encoding = await fileEncoding(path);
  const decoder = encoding === 'UTF-8' ? undefined : new TextDecoder(encoding.toLowerCase()); // drops a UTF-16 BOM
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    onBytes(chunk.length);
    yield decoder ? decoder.decode(chunk, { stream: true }) : chunk;
  }
  if (decoder) yield decoder.decode();
}
