/** What an envelope asks, as decode.ts and plain-envelope.ts read it (one type for both, and no import cycle between them). */
import type { SoapVersion } from '../constants.ts';

export interface SoapRequest {
  version: SoapVersion;
  /** The first element of Body: the operation wrapper, by namespace URI and local name. */
  wrapper?: { uri: string; local: string };
  /** Child elements of the wrapper by local name: text (CDATA included; xsi:nil → ""). */
  params: Map<string, string>;
  /** Qualified name of the first Header entry marked mustUnderstand, if any. */
  mustUnderstand?: string;
}
