/**
 * Reads a SOAP 1.1 or 1.2 request (golden README "SOAP faults" / routing rules). Matches on namespace
 * URIs and local names, never prefixes (clients use soap:, SOAP-ENV:, env:, soap-env:, ns0:, s10: …).
 * DTDs and entity declarations are refused before anything could expand (CONTRACT §7).
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { fail, ServiceError } from '../../errors.ts';
import { wholeCharEnd } from '../../io/decode.ts';
import { nextTurn } from '../../next-turn.ts';
import { SOAP11_NS, SOAP12_NS, XSI_NS } from '../constants.ts';
import { isTrue, refuseDeepNesting, repeated } from './guards.ts';
import { readPlainEnvelope } from './plain-envelope.ts';
import type { SoapRequest } from './soap-request.ts';
import { resolveType, typedValue, type QName } from './xsi-type.ts';

export type { SoapRequest };

/** Not XML at all, or broken XML: the binding answers 400 with an empty body (golden soap11-malformed-xml). */
export class MalformedXml extends Error {}

/** Thrown for a root that is no SOAP envelope of either version. */
export class NotAnEnvelope extends Error {}

function attr(tag: SaxesTagNS, uri: string, local: string): string | undefined {
  const attributes = tag.attributes;
  for (const name in attributes) {
    const a = attributes[name];
    if (a.uri === uri && a.local === local) return a.value;
  }
  return undefined;
}

/** A body's text before its XML is read: its byte-order mark dropped, or what it is when it cannot be XML. */
export function envelopeText(text: string): { body: string } | { shape: 'empty' | 'notXml' } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') return { shape: 'empty' };
  if (!body.trimStart().startsWith('<')) return { shape: 'notXml' };
  return { body };
}

/** What reading a body as an envelope came to, as plain data: the large-text worker reads a large one and posts this back. */
export type EnvelopeOutcome =
  | { read: SoapRequest }
  | { shape: 'empty' | 'notXml' }
  | { malformed: string }
  | { notAnEnvelope: true }
  | { refused: { code: ServiceError['code']; message: string; parameter?: string; path?: string } };

export function readEnvelope(text: string): EnvelopeOutcome {
  const t = envelopeText(text);
  if (!('body' in t)) return t;
  try {
    return { read: decodeSoap(t.body) };
  } catch (e) {
    if (e instanceof MalformedXml) return { malformed: e.message };
    if (e instanceof NotAnEnvelope) return { notAnEnvelope: true };
    if (e instanceof ServiceError)
      return {
        refused: { code: e.code, message: e.message, parameter: e.parameter, path: e.path },
      };
    throw e;
  }
}

/** The error an outcome that is no envelope stands for, as decodeSoap throws it. */
export function outcomeError(
  o: Exclude<EnvelopeOutcome, { read: SoapRequest } | { shape: string }>,
): Error {
  if ('malformed' in o) return new MalformedXml(o.malformed);
  if ('notAnEnvelope' in o) return new NotAnEnvelope();
  return fail(o.refused.code, o.refused.message, {
    parameter: o.refused.parameter,
    path: o.refused.path,
  });
}

/** Reads an envelope in one go: the usual case (every body under a MiB). */
export function decodeSoap(body: string): SoapRequest {
  return readPlainEnvelope(body) ?? parseEnvelope(body);
}

/** Parses an envelope in one go with saxes: what decodeSoap does with every shape readPlainEnvelope leaves. */
export function parseEnvelope(body: string): SoapRequest {
  const reader = envelopeReader();
  reader.write(body);
  return reader.finish();
}

/** Characters parsed between two turns of the event loop (a few milliseconds' work). */
const SLICE_CHARS = 256 * 1024;

/**
 * Parses a large envelope (ProcessRequest may carry 64 MiB) a slice at a time, letting the event
 * loop through between slices: parsed in one go, a 64 MiB import held every search for about a
 * second. The result is the same as decodeSoap's.
 */
export async function decodeSoapInSlices(body: string): Promise<SoapRequest> {
  const reader = envelopeReader();
  for (let at = 0; at < body.length;) {
    const to = wholeCharEnd(body, at + SLICE_CHARS);
    reader.write(body.slice(at, to));
    at = to;
    if (at < body.length) await nextTurn();
  }
  return reader.finish();
}

/** What one envelope's reading has met so far (EnvelopeParser.begin resets it). */
interface EnvelopeState {
  out: SoapRequest;
  envNs: string;
  depth: number;
  section: 'header' | 'body' | undefined;
  wrapperOpen: boolean;
  param: string | undefined;
  paramType: QName | undefined;
  text: string;
  sawBody: boolean;
}

/**
 * A saxes parser with the envelope rules as its handlers, reusable: saxes resets itself when an
 * envelope is closed without error. Making a parser and its handlers was a sixth of reading a
 * type-ahead envelope (18 µs), so one is kept between envelopes (envelopeReader); one that threw is
 * dropped, its state mid-document.
 */
class EnvelopeParser {
  readonly parser = new SaxesParser({ xmlns: true, position: false });
  st: EnvelopeState = EnvelopeParser.fresh();

  private static fresh(): EnvelopeState {
    return {
      out: { version: '1.1', params: new Map() },
      envNs: '',
      depth: 0,
      section: undefined,
      wrapperOpen: false,
      param: undefined,
      paramType: undefined,
      text: '',
      sawBody: false,
    };
  }

  constructor() {
    const parser = this.parser;
    refuseDeepNesting(parser, () => this.st.depth);
    parser.on('doctype', () => {
      throw fail('InvalidXml', 'XML with a DTD or entity declarations is refused.');
    });
    parser.on('opentag', (tag) => {
      const st = this.st,
        out = st.out;
      const depth = ++st.depth;
      if (depth === 1) {
        if (tag.local !== 'Envelope' || (tag.uri !== SOAP11_NS && tag.uri !== SOAP12_NS))
          throw new NotAnEnvelope();
        st.envNs = tag.uri;
        out.version = tag.uri === SOAP12_NS ? '1.2' : '1.1';
      } else if (depth === 2 && tag.uri === st.envNs) {
        st.section = tag.local === 'Header' ? 'header' : tag.local === 'Body' ? 'body' : undefined;
        if (st.section === 'body' && st.sawBody) throw repeated('Body', tag.name);
        if (st.section === 'body') st.sawBody = true;
      } else if (depth === 3 && st.section === 'header') {
        const mu = attr(tag, st.envNs, 'mustUnderstand');
        if (!out.mustUnderstand && isTrue(mu)) out.mustUnderstand = tag.name;
      } else if (depth === 3 && st.section === 'body') {
        if (out.wrapper) throw repeated('operation element', tag.name);
        out.wrapper = { uri: tag.uri, local: tag.local };
        st.wrapperOpen = true;
      } else if (depth === 4 && st.wrapperOpen && st.param === undefined) {
        st.param = tag.local;
        st.paramType = resolveType(attr(tag, XSI_NS, 'type'), (prefix) => parser.resolve(prefix));
        st.text = '';
      }
    });
    const onText = (t: string) => {
      const st = this.st;
      if (st.param !== undefined && st.depth === 4) st.text += t;
    };
    parser.on('text', onText);
    parser.on('cdata', onText);
    parser.on('closetag', () => {
      const st = this.st;
      if (st.depth === 4 && st.param !== undefined) {
        if (st.out.params.has(st.param)) throw repeated('parameter', st.param);
        st.out.params.set(st.param, typedValue(st.param, st.paramType, st.text));
        st.param = undefined;
      }
      if (st.depth === 3) st.wrapperOpen = false;
      if (st.depth === 2) st.section = undefined;
      st.depth--;
    });
  }

  /** Starts an envelope (the parser itself is fresh: new, or reset by the last close). */
  begin(): void {
    this.st = EnvelopeParser.fresh();
  }
}

/** The parser kept for the next envelope (see EnvelopeParser); taken while one is read. */
let spare: EnvelopeParser | undefined;

function guarded(step: () => void): void {
  try {
    step();
  } catch (e) {
    if (e instanceof NotAnEnvelope || e instanceof ServiceError) throw e;
    throw new MalformedXml((e as Error).message);
  }
}

/** A parser for one envelope, fed by write() and ended by finish(); both throw what the binding answers. */
function envelopeReader(): { write(chunk: string): void; finish(): SoapRequest } {
  const p = spare ?? new EnvelopeParser();
  spare = undefined; // a sliced read may be under way when the next envelope arrives
  p.begin();
  return {
    write: (chunk) => guarded(() => p.parser.write(chunk)),
    finish() {
      guarded(() => p.parser.close());
      spare = p; // closed without error: reset by saxes, ready for the next
      return p.st.out;
    },
  };
}

/** `action` parameter of a SOAP 1.2 Content-Type (`application/soap+xml; charset=utf-8; action="…"`). */
export function actionParameter(contentType: string): string | undefined {
  const m = /;\s*action\s*=\s*("([^"]*)"|[^;\s]+)/i.exec(contentType);
  return m ? (m[2] ?? m[1]) : undefined;
}

/** SOAPAction header value without its quotes; `undefined` when the header is absent. */
export function soapActionHeader(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = (Array.isArray(value) ? value[0] : value).trim();
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;
}
