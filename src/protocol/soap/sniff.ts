/**
 * Finds a SOAP message's operation element while its body is still arriving, so that the body's size
 * limit can follow the routed operation (1 MiB; ProcessRequest 64 MiB) and apply while streaming:
 * until this has seen the operation element, only the small limit applies (issue 27: no text search
 * for `<ProcessRequest ` deciding it). A real XML parse with the nesting limit, stopped at the first
 * child of the Body; decode.ts reads the whole envelope afterwards and is the one that judges it.
 */
import { SaxesParser } from 'saxes';
import { SOAP12_NS, type SoapVersion } from '../constants.ts';
import { refuseDeepNesting } from './guards.ts';

export interface SniffedElement {
  version: SoapVersion;
  uri: string;
  local: string;
}

const FOUND = new Error('found');

export class OperationSniffer {
  private readonly parser = new SaxesParser({ xmlns: true, position: false });
  private depth = 0;
  private inBody = false;
  private version: SoapVersion = '1.1';
  /** True once the operation element was seen or cannot be (broken XML, too deep, an empty Body). */
  done = false;
  found?: SniffedElement;

  constructor() {
    const p = this.parser;
    refuseDeepNesting(p, () => this.depth);
    p.on('doctype', () => { throw FOUND; }); // decode.ts refuses it
    p.on('opentag', (tag) => {
      this.depth++;
      if (this.depth === 1) this.version = tag.uri === SOAP12_NS ? '1.2' : '1.1';
      else if (this.depth === 2) this.inBody = tag.local === 'Body';
      else if (this.depth === 3 && this.inBody) {
        this.found = { version: this.version, uri: tag.uri, local: tag.local };
        throw FOUND;
      }
    });
    p.on('closetag', () => {
      if (this.depth === 2 && this.inBody) throw FOUND;
      this.depth--;
    });
  }

  write(text: string): void {
    if (this.done) return;
    try {
      this.parser.write(text);
    } catch {
      this.done = true; // found it, or the XML cannot hold it: either way the parse stops here
    }
  }
}
