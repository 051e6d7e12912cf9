/**
 * Bytes to text in slices between turns of the event loop: a 30 MB request decoded at once held the
 * main thread 140 ms (bench:live --via wire at 1M). A slice is SLICE_BYTES (a few ms); the decoder
 * streams, so a character split between two slices is whole in the text. The text comes as its
 * pieces, one a slice: joined into one string, the first read of it would copy it all in one go
 * (30–130 ms for 30 MB), so readers that can take pieces do.
 */
import { nextTurn } from '../next-turn.ts';

const SLICE_BYTES = 1 << 20;

export async function decodeSliced(
  decoder: TextDecoder,
  parts: readonly Uint8Array[],
): Promise<string[]> {
  const pieces: string[] = [];
  let piece = '';
  let since = 0; // bytes decoded in this turn
  for (const part of parts)
    for (let i = 0; i < part.length; i += SLICE_BYTES) {
      const slice = part.subarray(i, i + SLICE_BYTES);
      piece += decoder.decode(slice, { stream: true });
      if ((since += slice.length) >= SLICE_BYTES) {
        pieces.push(piece);
        piece = '';
        since = 0;
        await nextTurn();
      }
    }
  piece += decoder.decode();
  if (piece || pieces.length === 0) pieces.push(piece);
  return pieces;
}

/** Pieces as one string, left unflattened (V8 copies it whole at its first indexed read). */
export function joined(pieces: readonly string[]): string {
  let s = '';
  for (const p of pieces) s += p;
  return s;
}
