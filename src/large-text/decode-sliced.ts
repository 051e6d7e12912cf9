/**
 * Bytes to text in slices between turns of the event loop: a 30 MB request decoded at once held the
 * main thread 140 ms (bench:live --via wire at 1M). A slice is SLICE_BYTES (a few ms); the decoder
 * streams, so a character split between two slices is whole in the text. The text is left as the
 * slices joined by `+` (V8 copies it whole at its first indexed read, not here).
 */
import { nextTurn } from '../next-turn.ts';

const SLICE_BYTES = 1 << 20;

export async function decodeSliced(decoder: TextDecoder, bytes: Uint8Array): Promise<string> {
  let text = '';
  for (let i = 0; i < bytes.length; i += SLICE_BYTES) {
    text += decoder.decode(bytes.subarray(i, i + SLICE_BYTES), { stream: true });
    await nextTurn();
  }
  return text + decoder.decode();
}
