/**
 * The envelope nearly every client sends, read without an XML parser: an optional XML declaration,
 * Envelope, an optional empty Header, Body, one operation element and its parameters as plain text,
 * namespace declarations the only attributes. Reading one through saxes was ~7 µs of a ~170 µs
 * type-ahead request over SOAP 1.1 (docs/perf-log/2026-11-28-plain-envelope.md); this takes ~1.
 *
 * It answers only where it is sure, and otherwise says nothing (undefined) and decode.ts reads the
 * envelope with saxes as before: a comment, CDATA, a processing instruction or DTD, a character
 * reference or any entity but XML's five, any other attribute (xsi:type, xsi:nil, mustUnderstand), a Header with
 * entries, a carriage return, a character XML forbids, a name outside ASCII, an undeclared prefix,
 * a repeated parameter, a second operation element, anything after the root. So every error and
 * every refusal stays saxes' and the envelope rules' (decode.ts). plain-envelope.test.ts holds it
 * to that: wherever it answers, saxes answers the same.
 */
import { SOAP11_NS, SOAP12_NS } from '../constants.ts';
import type { SoapRequest } from './soap-request.ts';

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** `<?xml version="1.0" …?>` with at most an encoding name and standalone. */
const DECL =
  /<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.0\1(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(["'])(?:yes|no)\3)?[ \t\r\n]*\?>/y;
/**
 * Where an ASCII name (`[A-Za-z_][A-Za-z0-9_.-]*`) starting at `i` ends; `i` when there is none.
 * By character codes: a sticky regex made a match array and its strings per tag (~1 µs an envelope).
 */
function nameEnd(s: string, i: number): number {
  let c = s.charCodeAt(i) | 0x20; // letters to lower case; '_' (0x5f) becomes 0x7f
  if (!((c >= 97 && c <= 122) || c === 0x7f)) return i;
  for (i++; i < s.length; i++) {
    c = s.charCodeAt(i);
    if (!(
      (c >= 97 && c <= 122) ||
      (c >= 65 && c <= 90) ||
      (c >= 48 && c <= 57) ||
      c === 95 ||
      c === 46 ||
      c === 45
    ))
      break;
  }
  return i;
}
/** What a parameter's text may not hold here (saxes would read it, or refuse it); `]]>` too. */
const NOT_TEXT = /[\u0000-\u0008\u000B-\u001F<\uD800-\uDFFF\uFFFE\uFFFF]/;
/** XML's five predefined entities: node-soap and suds send a JSON parameter's quotes as `&quot;`. */
const PREDEFINED = /&(?:amp|lt|gt|quot|apos);/g;
const ENTITY: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&apos;': "'",
};

/** A parameter's value from its raw text; undefined when the text is not plain (a character reference, any other `&`, CDATA's end …). */
function textOf(raw: string): string | undefined {
  if (NOT_TEXT.test(raw) || raw.indexOf(']]>') >= 0) return undefined;
  let amps = 0;
  for (let at = raw.indexOf('&'); at >= 0; at = raw.indexOf('&', at + 1)) amps++;
  if (amps === 0) return raw;
  let met = 0;
  const text = raw.replace(PREDEFINED, (e) => {
    met++;
    return ENTITY[e];
  });
  return met === amps ? text : undefined; // every '&' one of the five
}

/** What a namespace name may hold here: no reference, no character saxes would refuse or normalise. */
const NOT_URI = /[\u0000-\u001F&<\uD800-\uDFFF\uFFFE\uFFFF]|]]>/;

/** Namespace declarations one tag may carry here (node-soap sends one per WSDL namespace: 17 here); more are saxes'. */
const MOST_DECLARATIONS = 64;

/** A start tag as read: its qualified name and whether it closed itself. */
interface Tag {
  qname: string;
  prefix: string;
  local: string;
  empty: boolean;
}

/**
 * One envelope's reading; `at` moves through `s`. The namespace declarations in scope are `ns`'s
 * first `declared`, a flat [prefix, uri, …] list, innermost last (read up to a count, not cut: a
 * length write is a runtime call).
 */
class Scan {
  at = 0;
  readonly ns: string[] = [];
  declared = 0;
  constructor(readonly s: string) {}

  space(): void {
    const s = this.s;
    let c: number;
    while (
      this.at < s.length &&
      ((c = s.charCodeAt(this.at)) === 32 || c === 10 || c === 9 || c === 13)
    )
      this.at++;
  }

  /** A start tag at `at`, its namespace declarations pushed onto `ns`; undefined for anything else. */
  open(): Tag | undefined {
    const s = this.s;
    if (s.charCodeAt(this.at) !== 60 /* < */) return undefined;
    const start = this.at + 1;
    let end = nameEnd(s, start);
    if (end === start) return undefined;
    let prefix = '';
    if (s.charCodeAt(end) === 58 /* : */) {
      const colon = end;
      end = nameEnd(s, colon + 1);
      if (end === colon + 1) return undefined;
      prefix = s.slice(start, colon);
    }
    const qname = s.slice(start, end),
      local = prefix === '' ? qname : s.slice(start + prefix.length + 1, end);
    this.at = end;
    const declared = this.declared;
    for (;;) {
      const before = this.at;
      this.space();
      const c = s.charCodeAt(this.at);
      if (c === 62 /* > */) {
        this.at++;
        return { qname, prefix, local, empty: false };
      }
      if (c === 47 /* / */) {
        if (s.charCodeAt(this.at + 1) !== 62) return undefined;
        this.at += 2;
        return { qname, prefix, local, empty: true };
      }
      if (this.at === before || !this.declaration(declared)) return undefined;
    }
  }

  /** An `xmlns` or `xmlns:p` attribute at `at`, pushed onto `ns` (unless declared already on this tag, from `from`). */
  private declaration(from: number): boolean {
    const s = this.s;
    if (!s.startsWith('xmlns', this.at)) return false;
    let p = this.at + 5,
      prefix = '';
    if (s.charCodeAt(p) === 58 /* : */) {
      const end = nameEnd(s, p + 1);
      if (end === p + 1) return false;
      prefix = s.slice(p + 1, end);
      if (prefix === 'xml' || prefix === 'xmlns') return false;
      p = end;
    }
    this.at = p;
    this.space();
    if (s.charCodeAt(this.at) !== 61 /* = */) return false;
    this.at++;
    this.space();
    const q = s.charCodeAt(this.at);
    if (q !== 34 && q !== 39) return false;
    const end = s.indexOf(q === 34 ? '"' : "'", this.at + 1);
    if (end < 0) return false;
    const uri = s.slice(this.at + 1, end);
    if (NOT_URI.test(uri)) return false;
    if ((prefix !== '' && uri === '') || uri === XML_NS || uri === XMLNS_NS) return false;
    // Each is checked against this tag's others: capped, or 100,000 of them would be 5·10⁹ compares.
    if (this.declared - from >= 2 * MOST_DECLARATIONS) return false;
    for (let k = from; k < this.declared; k += 2) if (this.ns[k] === prefix) return false;
    this.ns[this.declared++] = prefix;
    this.ns[this.declared++] = uri;
    this.at = end + 1;
    return true;
  }

  /** The namespace a prefix stands for here; undefined when none is declared ('' stands for none by default). */
  uri(prefix: string): string | undefined {
    for (let k = this.declared - 2; k >= 0; k -= 2)
      if (this.ns[k] === prefix) return this.ns[k + 1];
    return prefix === '' ? '' : undefined;
  }

  /** The end tag of `qname` at `at`. */
  close(qname: string): boolean {
    const s = this.s;
    if (s.charCodeAt(this.at) !== 60 || s.charCodeAt(this.at + 1) !== 47) return false;
    if (!s.startsWith(qname, this.at + 2)) return false;
    this.at += 2 + qname.length;
    this.space();
    if (s.charCodeAt(this.at) !== 62) return false;
    this.at++;
    return true;
  }
}

/** A tag's namespace, or undefined when its prefix is not declared or is one XML keeps. */
function uriOf(scan: Scan, tag: Tag): string | undefined {
  return tag.prefix === 'xml' || tag.prefix === 'xmlns' ? undefined : scan.uri(tag.prefix);
}

/** The envelope as decodeSoap reads it, when it has the plain shape (see the module comment); else undefined. */
export function readPlainEnvelope(body: string): SoapRequest | undefined {
  const scan = new Scan(body);
  if (body.startsWith('<?xml')) {
    DECL.lastIndex = 0;
    if (!DECL.test(body)) return undefined;
    scan.at = DECL.lastIndex;
    scan.space();
  }
  const env = scan.open();
  if (!env || env.empty || env.local !== 'Envelope') return undefined;
  const envNs = uriOf(scan, env);
  if (envNs !== SOAP11_NS && envNs !== SOAP12_NS) return undefined;
  const envDeclared = scan.declared;
  scan.space();
  let section = scan.open();
  if (!section || uriOf(scan, section) !== envNs) return undefined;
  if (section.local === 'Header') {
    // An empty one only (`<soap:Header/>`, or with nothing but space in it): its entries are saxes'.
    if (!section.empty) {
      scan.space();
      if (!scan.close(section.qname)) return undefined;
    }
    scan.declared = envDeclared;
    scan.space();
    section = scan.open();
    if (!section || uriOf(scan, section) !== envNs) return undefined;
  }
  if (section.local !== 'Body' || section.empty) return undefined;
  scan.space();
  const wrapper = scan.open();
  if (!wrapper || wrapper.empty) return undefined;
  const wrapperUri = uriOf(scan, wrapper);
  if (wrapperUri === undefined) return undefined;
  const params = new Map<string, string>();
  const s = body;
  for (;;) {
    scan.space();
    if (s.charCodeAt(scan.at + 1) === 47 /* </ */) break;
    const declared = scan.declared;
    const param = scan.open();
    if (!param || params.has(param.local) || uriOf(scan, param) === undefined) return undefined;
    let text = '';
    if (!param.empty) {
      const end = s.indexOf('<', scan.at);
      if (end < 0) return undefined;
      const value = textOf(s.slice(scan.at, end));
      if (value === undefined) return undefined;
      text = value;
      scan.at = end;
      if (!scan.close(param.qname)) return undefined;
    }
    params.set(param.local, text);
    scan.declared = declared;
  }
  if (!scan.close(wrapper.qname)) return undefined;
  scan.space();
  if (!scan.close(section.qname)) return undefined;
  scan.space();
  if (!scan.close(env.qname)) return undefined;
  scan.space();
  if (scan.at !== s.length) return undefined;
  // Its members in decodeSoap's order: one object shape for the code that reads either.
  return {
    version: envNs === SOAP12_NS ? '1.2' : '1.1',
    params,
    wrapper: { uri: wrapperUri, local: wrapper.local },
  };
}
