/**
 * An index image (image.ts) as bytes, for a file: a fixed preamble, a JSON header (the image's own,
 * the arrays' types and lengths, and the caller's `meta`), then each array's bytes at an 8-byte
 * boundary. A CRC-32 of everything after the preamble catches a flipped or missing byte. Reading
 * puts each array in a buffer of its own, read straight from the file (readImageFile), or checks
 * the file through and maps its large arrays (checkImageFile, then mapImage).
 *
 *   0   8 bytes  "CSIDXIMG"
 *   8   u32      header length in bytes (UTF-8 JSON)
 *   12  u32      CRC-32 of bytes [16, end)
 *   16  header, zero-padded to a multiple of 8, then the arrays, each zero-padded the same way and
 *       followed by its room, if it has any
 *
 * An array's room (image.ts `room`, the layout's third number: elements of its type) is zeros left
 * after it, outside the CRC and written as a hole (no disk, no page cache until touched): mapped
 * with the array, so a table column written after the image's open appends into it copy-on-write
 * instead of being copied whole (table/growable.ts giveRoom).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { mapBytes } from '../../io/file-map.ts';
import { giveRoom, type Typed } from '../table/growable.ts';
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
export type TypeName = keyof typeof TYPES;

function typeName(a: Typed): TypeName {
  if (a instanceof Uint8Array) return 'u8';
  if (a instanceof Uint16Array) return 'u16';
  if (a instanceof Uint32Array) return 'u32';
  if (a instanceof Int32Array) return 'i32';
  return 'f64';
}

interface FileHeader<M> {
  image: ImageHeader;
  /** Per array: its type, its length and, when it has room, the room's length (elements). */
  layout: ([TypeName, number] | [TypeName, number, number])[];
  meta: M;
}

const pad = (n: number) => (8 - (n % 8)) % 8;
const ZEROS = Buffer.alloc(8);
/** The bytes `room` elements of `type` take after an array, a multiple of 8. */
const roomBytes = (type: TypeName, room: number) => {
  const n = room * TYPES[type].BYTES_PER_ELEMENT;
  return n + pad(n);
};

const roomOf = (image: IndexImage, i: number) => image.room?.[i] ?? 0;

const layoutOf = (image: IndexImage): FileHeader<unknown>['layout'] =>
  image.arrays.map((a, i) => {
    const room = roomOf(image, i);
    return room > 0 ? [typeName(a), a.length, room] : [typeName(a), a.length];
  });

function headerJson<M>(image: IndexImage, meta: M): Buffer {
  const fh: FileHeader<M> = { image: image.header, layout: layoutOf(image), meta };
  return Buffer.from(JSON.stringify(fh), 'utf8');
}

/** Where each array of a file whose header is `headerLength` bytes and `layout` lies: its first byte, its bytes (room left out). */
function placesOf(headerLength: number, layout: FileHeader<unknown>['layout']) {
  let at = PREAMBLE + headerLength + pad(headerLength);
  return layout.map(([type, length, room = 0]) => {
    if (!TYPES[type]) throw new BadImage(`unknown array type ${type}`);
    const bytes = length * TYPES[type].BYTES_PER_ELEMENT;
    const place = { offset: at, bytes };
    at += bytes + pad(bytes) + roomBytes(type, room);
    return place;
  });
}

/** Where each array of `image` starts in the file imageBytes(image, meta) makes. */
export function imageOffsets<M>(image: IndexImage, meta: M): number[] {
  return placesOf(headerJson(image, meta).length, layoutOf(image)).map((p) => p.offset);
}

/** A piece of an image file: bytes, or a number of zero bytes (an array's room) left as a hole. */
export type ImageChunk = Buffer | number;

/**
 * The image as a list of chunks to write one after another (the arrays are not copied): bytes, and
 * the arrays' rooms as counts of zero bytes to skip (a file written so has holes there).
 */
export function imageBytes<M>(image: IndexImage, meta: M): ImageChunk[] {
  const json = headerJson(image, meta);
  const body: ImageChunk[] = [json, ZEROS.subarray(0, pad(json.length))];
  image.arrays.forEach((a, i) => {
    body.push(
      Buffer.from(a.buffer, a.byteOffset, a.byteLength),
      ZEROS.subarray(0, pad(a.byteLength)),
    );
    const room = roomBytes(typeName(a), roomOf(image, i));
    if (room > 0) body.push(room);
  });
  let crc = 0;
  for (const b of body) if (typeof b !== 'number' && b.length > 0) crc = crc32(b, crc); // an empty view made it restart at 0 (Node 20.20); rooms are not checked
  const pre = Buffer.alloc(PREAMBLE);
  MAGIC.copy(pre, 0);
  pre.writeUInt32LE(json.length, 8);
  pre.writeUInt32LE(crc, 12);
  return [pre, ...body];
}

/** The file imageBytes describes, as one buffer (its rooms as zeros). */
export function imageBuffer<M>(image: IndexImage, meta: M): Buffer {
  return Buffer.concat(
    imageBytes(image, meta).map((c) => (typeof c === 'number' ? Buffer.alloc(c) : c)),
  );
}

/** Why bytes are not an image: named for the one warning a caller gives. */
export class BadImage extends Error {}

/**
 * The meta written with an image, read without checking the payload: a caller decides from it
 * whether the image is worth checking and loading (its version, its store) before paying for that.
 */
export function imageMeta<M>(bytes: Buffer): M {
  return parseHeader<M>(bytes.subarray(0, PREAMBLE), (len) => {
    if (PREAMBLE + len > bytes.length) throw new BadImage('truncated in its header');
    return bytes.subarray(PREAMBLE, PREAMBLE + len);
  }).meta;
}

/** The image header of a file (its columns' layout, its counts), read without the payload. */
export function imageHeaderOfFile(file: string): ImageHeader {
  return imagePlaces(file).header;
}

/**
 * Where each array of an image file lies (its first byte's offset and its bytes, room left out), and
 * the image header that names them, read without the payload: for the benchmarks that look at which
 * of a snapshot's pages a server holds (bench/image-residency.bench.ts).
 */
export function imagePlaces(file: string): {
  header: ImageHeader;
  places: { offset: number; bytes: number }[];
} {
  const fd = openSync(file, 'r');
  try {
    const pre = Buffer.alloc(PREAMBLE);
    readSync(fd, pre, 0, PREAMBLE, 0);
    let headerLength = 0;
    const fh = parseHeader<unknown>(pre, (len) => {
      const out = Buffer.alloc(len);
      if (readSync(fd, out, 0, len, PREAMBLE) < len) throw new BadImage('truncated in its header');
      headerLength = len;
      return out;
    });
    return { header: fh.image, places: placesOf(headerLength, fh.layout ?? []) };
  } finally {
    closeSync(fd);
  }
}

function parseHeader<M>(pre: Buffer, json: (len: number) => Buffer): FileHeader<M> {
  if (pre.length < PREAMBLE || !pre.subarray(0, 8).equals(MAGIC))
    throw new BadImage('not an index image (no preamble)');
  const bytes = json(pre.readUInt32LE(8));
  try {
    return JSON.parse(bytes.toString('utf8')) as FileHeader<M>;
  } catch {
    throw new BadImage('unreadable header');
  }
}

/** Reads `into.length` bytes at `pos` into `into`. */
type Reader = (into: Uint8Array, pos: number) => void;

/**
 * An array of an image file that was checked but not read: its type, its length, its first byte's
 * offset in the file, and its room (elements; mapped with it).
 */
export type ArrayPlace = [TypeName, number, number, number];

/**
 * An image file checked (checkImageFile): the arrays read (a hole where one was not kept), and where
 * the others lie (mapImage maps them).
 */
export interface CheckedImage<M> {
  image: IndexImage;
  meta: M;
  /** Per array: its place in the file where it was not kept. */
  places: (ArrayPlace | undefined)[];
}

/** The CRC is computed over an unkept array in pieces of this many bytes (one buffer, reused). */
const CHECK_PIECE = 4 << 20;

/**
 * The image and meta held by `size` bytes that `read` reads, the CRC computed as they are read;
 * BadImage when truncated or damaged. An array of `keepBelow` bytes or more is only checked, not
 * kept (its place is returned); the others are each read into a buffer of its own (so no one
 * allocation holds the whole file: a 10M-contact image is several GB, past what one Buffer or one
 * file read takes).
 */
function readFrom<M>(read: Reader, size: number, keepBelow = Infinity): CheckedImage<M> {
  /** `length` bytes at `pos`, in an ArrayBuffer of their own (aligned for any view) with `room` zero bytes after them. */
  const chunk = (pos: number, length: number, room = 0): Buffer => {
    if (pos + length > size) throw new BadImage('truncated');
    const b = new Uint8Array(length + room);
    read(room > 0 ? b.subarray(0, length) : b, pos);
    return Buffer.from(b.buffer, 0, length);
  };
  let scratch: Uint8Array | undefined;
  const pre = chunk(0, Math.min(PREAMBLE, size));
  let crc = 0;
  let at = PREAMBLE;
  const fh = parseHeader<M>(pre, (len) => {
    const json = chunk(PREAMBLE, len + pad(len));
    crc = crc32(json, crc);
    at += json.length;
    return json.subarray(0, len);
  });
  const arrays: Typed[] = [];
  const room: number[] = [];
  const places: (ArrayPlace | undefined)[] = [];
  for (const [type, length, spare = 0] of fh.layout) {
    const T = TYPES[type];
    if (!T) throw new BadImage(`unknown array type ${type}`);
    if (!(Number.isSafeInteger(spare) && spare >= 0))
      throw new BadImage(`an array's room of ${spare}`);
    const bytes = length * T.BYTES_PER_ELEMENT;
    const padded = bytes + pad(bytes),
      after = roomBytes(type, spare);
    room.push(spare);
    if (bytes >= keepBelow) {
      if (at + padded > size) throw new BadImage('truncated');
      scratch ??= new Uint8Array(CHECK_PIECE);
      for (let done = 0; done < padded; done += CHECK_PIECE) {
        const piece = scratch.subarray(0, Math.min(CHECK_PIECE, padded - done));
        read(piece, at + done);
        crc = crc32(piece, crc);
      }
      arrays.push(undefined as unknown as Typed); // a hole, until mapImage
      places.push([type, length, at, spare]);
    } else {
      const b = chunk(at, padded, after); // the room as zeros of this process (not read: a hole)
      if (b.length > 0) crc = crc32(b, crc); // an empty view made it restart at 0 (Node 20.20)
      const a = new T(b.buffer as ArrayBuffer, 0, length);
      giveRoom(a, spare);
      arrays.push(a);
      places.push(undefined);
    }
    at += padded + after;
  }
  if (at > size) throw new BadImage('truncated');
  if (at !== size) throw new BadImage('longer than its arrays');
  if (crc !== pre.readUInt32LE(12)) throw new BadImage('checksum mismatch (damaged or truncated)');
  return { image: { header: fh.image, arrays, room }, meta: fh.meta, places };
}

/** A checked image whose arrays were all read. */
const whole = <M>({ image, meta }: CheckedImage<M>) => ({ image, meta });

/** The image and meta in `bytes` (copied out array by array); BadImage when truncated or damaged. */
export function readImage<M>(bytes: Buffer): { image: IndexImage; meta: M } {
  return whole(
    readFrom<M>((into, pos) => into.set(bytes.subarray(pos, pos + into.length)), bytes.length),
  );
}

/** The image and meta in `file`, read array by array; BadImage when truncated or damaged. */
export function readImageFile<M>(file: string): { image: IndexImage; meta: M } {
  const fd = openSync(file, 'r');
  try {
    return whole(checkImageFile<M>(fd));
  } finally {
    closeSync(fd);
  }
}

/**
 * The image in the open file `fd`, checked (CRC, layout) by reading it through; arrays of
 * `keepBelow` bytes or more are not kept, only placed, for mapImage to map from the same file.
 */
export function checkImageFile<M>(fd: number, keepBelow = Infinity): CheckedImage<M> {
  return readFrom<M>(
    (into, pos) => {
      for (let done = 0; done < into.length;) {
        const n = readSync(fd, into, done, Math.min(into.length - done, 1 << 30), pos + done);
        if (n === 0) throw new BadImage('truncated');
        done += n;
      }
    },
    fstatSync(fd).size,
    keepBelow,
  );
}

/**
 * `image` as written at `at` (imageOffsets) with its arrays of `keepBelow` bytes or more left out
 * (holes) and placed, as checkImageFile leaves them, for mapImage.
 */
export function withHoles(
  image: IndexImage,
  at: readonly number[],
  keepBelow: number,
): { image: IndexImage; places: (ArrayPlace | undefined)[] } {
  const places = image.arrays.map((a, i): ArrayPlace | undefined =>
    a.byteLength >= keepBelow ? [typeName(a), a.length, at[i], roomOf(image, i)] : undefined,
  );
  const arrays = image.arrays.map((a, i) => (places[i] ? (undefined as unknown as Typed) : a));
  return { image: { header: image.header, arrays, room: image.room }, places };
}

/**
 * `image` (checkImageFile's, from `fd`) with the arrays it did not keep mapped from `fd` (io/file-map.ts):
 * the same file, so the same bytes that were checked even if its path names another file since.
 */
export function mapImage(
  fd: number,
  image: IndexImage,
  places: readonly (ArrayPlace | undefined)[],
): IndexImage {
  const arrays = image.arrays.map((a, i) => {
    const place = places[i];
    if (!place) return a;
    const [type, length, at, room] = place;
    const T = TYPES[type];
    const bytes = mapBytes(fd, at, length * T.BYTES_PER_ELEMENT + roomBytes(type, room));
    const mapped = new T(bytes.buffer as ArrayBuffer, bytes.byteOffset, length);
    giveRoom(mapped, room);
    return mapped;
  });
  return { header: image.header, arrays, room: image.room };
}
