/**
 * Finds a SOAP message's operation element in the part of its body received so far, so that the
 * body's size limit can follow the routed operation (1 MiB; ProcessRequest 64 MiB) while the body
 * streams in (issue 27: no text search for `<ProcessRequest ` deciding it). A real XML parse with the
 * nesting limit, stopped at the first child of the Body; decode.ts reads the whole envelope afterwards
 * and is the one that judges it.
 */
import { SaxesParser } from 'saxes';
import { SOAP12_NS, type SoapVersion } from '../constants.ts';
import { refuseDeepNesting } from './guards.ts';

export interface SniffedElement {
  version: SoapVersion;
  uri: string;
  local: string;
}

const STOP = new Error('stop');

/** The Body's first element in `head` (the start of an envelope), or undefined when `head` holds none: broken, too deep, or not that far. */
export function operationElementOf(head: string): SniffedElement | undefined {
  const parser = new SaxesParser({ xmlns: true, position: false });
  let depth = 0;
  let inBody = false;
  let version: SoapVersion = '1.1';
  let found: SniffedElement | undefined;
  refuseDeepNesting(parser, () => depth);
  parser.on('doctype', () => {
    throw STOP;
  }); // decode.ts refuses it
  parser.on('opentag', (tag) => {
    depth++;
    if (depth === 1) version = tag.uri === SOAP12_NS ? '1.2' : '1.1';
    else if (depth === 2) inBody = tag.local === 'Body';
    else if (depth === 3 && inBody) {
      found = { version, uri: tag.uri, local: tag.local };
      throw STOP;
    }
  });
  parser.on('closetag', () => {
    depth--;
  });
  try {
    parser.write(head);
  } catch {
    // found it, or the XML cannot hold it: either way the parse stops here
  }
  return found;
}
