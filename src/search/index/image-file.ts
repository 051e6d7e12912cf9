/**
 * An index image (image.ts) as bytes, for a file: a fixed preamble, a JSON header (the image's own,
 * the arrays' types and lengths, and the caller's `meta`), then each array's bytes at an 8-byte
 * boundary. A CRC-32 of everything after the preamble catches a flipped or missing byte. Reading
 * makes every array a view of the bytes read (no copy), so opening from a file costs one read.
 *
 *   0   8 bytes  "CSIDXIMG"
 *   8   u32      header length in bytes (UTF-8 JSON)
 *   12  u32      CRC-32 of bytes [16, end)
 *   16  header, zero-padded to a multiple of 8, then the arrays, each zero-padded the same way
 */
import { crc32 } from 'node:zlib';
import type { Typed } from '../table/growable.ts';
import type { ImageHeader, IndexImage } from './image.ts';

const MAGIC = Buffer.from('CSIDXIMG', 'latin1');
const PREAMBLE = 16;

const TYPES = {
  u8: Uint8Array,
  u16: Uint16Array,
  u32: Uint32Array,
  i32: Int32Array,
  f64: Float64Array,
} as const;
type TypeName = keyof typeof TYPES;

function typeName(a: Typed): TypeName {
  if (a instanceof Uint8Array) return 'u8';
  if (a instanceof Uint16Array) return 'u16';
  if (a instanceof Uint32Array) return 'u32';
  if (a instanceof Int32Array) return 'i32';
  return 'f64';
}

interface FileHeader<M> {
  image: ImageHeader;
  layout: [TypeName, number][];
  meta: M;
}

const pad = (n: number) => (8 - (n % 8)) % 8;
const ZEROS = Buffer.alloc(8);

/** The image as a list of byte chunks to write one after another (the arrays are not copied). */
export function imageBytes<M>(image: IndexImage, meta: M): Buffer[] {
  const fh: FileHeader<M> = {
    image: image.header,
    layout: image.arrays.map((a) => [typeName(a), a.length]),
    meta,
  };
  const json = Buffer.from(JSON.stringify(fh), 'utf8');
  const body: Buffer[] = [json, ZEROS.subarray(0, pad(json.length))];
  for (const a of image.arrays) {
    body.push(
      Buffer.from(a.buffer, a.byteOffset, a.byteLength),
      ZEROS.subarray(0, pad(a.byteLength)),
    );
  }
  let crc = 0;
  for (const b of body) if (b.length > 0) crc = crc32(b, crc); // an empty view made it restart at 0 (Node 20.20)
  const pre = Buffer.alloc(PREAMBLE);
  MAGIC.copy(pre, 0);
  pre.writeUInt32LE(json.length, 8);
  pre.writeUInt32LE(crc, 12);
  return [pre, ...body];
}

/** Why bytes are not an image: named for the one warning a caller gives. */
export class BadImage extends Error {}

/**
 * The meta written with an image, read without checking the payload: a caller decides from it
 * whether the image is worth checking and loading (its version, its store) before paying for that.
 */
export function imageMeta<M>(bytes: Buffer): M {
  return readHeader<M>(bytes).meta;
}

function readHeader<M>(bytes: Buffer): FileHeader<M> {
  if (bytes.length < PREAMBLE || !bytes.subarray(0, 8).equals(MAGIC))
    throw new BadImage('not an index image (no preamble)');
  const len = bytes.readUInt32LE(8);
  if (PREAMBLE + len > bytes.length) throw new BadImage('truncated in its header');
  try {
    return JSON.parse(bytes.toString('utf8', PREAMBLE, PREAMBLE + len)) as FileHeader<M>;
  } catch {
    throw new BadImage('unreadable header');
  }
}

/** The image and meta in `bytes` (arrays are views of `bytes`); BadImage when truncated or damaged. */
export function readImage<M>(bytes: Buffer): { image: IndexImage; meta: M } {
  const fh = readHeader<M>(bytes);
  if (crc32(bytes.subarray(PREAMBLE)) !== bytes.readUInt32LE(12))
    throw new BadImage('checksum mismatch (damaged or truncated)');
  // Views need their element size's alignment; a Buffer from a file read starts its own memory.
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : Buffer.from(bytes);
  let at = PREAMBLE + bytes.readUInt32LE(8);
  at += pad(at);
  const arrays: Typed[] = [];
  for (const [type, length] of fh.layout) {
    const T = TYPES[type];
    if (!T) throw new BadImage(`unknown array type ${type}`);
    const size = length * T.BYTES_PER_ELEMENT;
    if (at + size > aligned.length) throw new BadImage('truncated in its arrays');
    arrays.push(new T(aligned.buffer as ArrayBuffer, aligned.byteOffset + at, length));
    at += size + pad(size);
  }
  if (at !== aligned.length) throw new BadImage('longer than its arrays');
  return { image: { header: fh.image, arrays }, meta: fh.meta };
}
