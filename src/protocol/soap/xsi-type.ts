/**
 * `xsi:type`'d parameter values (SOAP section-5 encoding, as SOAP::Lite sends them). Every parameter
 * is a string, so a type only matters where the text is not the value: SOAP::Lite types any string
 * holding a character outside printable ASCII as `xsd:base64Binary` ("Zoë" travels base64'd), so
 * base64 types are decoded as UTF-8 text; every other type (xsd:string, soapenc:string, xsd:int …)
 * is read as its text (docs/WIRE.md "Which requests name which operation").
 */
import { fail } from '../../errors.ts';
import { XSD_NS } from '../constants.ts';

export const SOAP_ENC_NS = 'http://schemas.xmlsoap.org/soap/encoding/';

export interface QName {
  uri: string;
  local: string;
}

const BASE64_TYPES = new Set([
  `${XSD_NS} base64Binary`,
  `${SOAP_ENC_NS} base64`,
  `${SOAP_ENC_NS} base64Binary`,
]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * An `xsi:type` value (`prefix:local`) resolved with the prefixes in scope; undefined when there is
 * none or its prefix is not declared (then the text is read as it is).
 */
export function resolveType(
  value: string | undefined,
  resolve: (prefix: string) => string | undefined,
): QName | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  const colon = v.indexOf(':');
  const uri = resolve(colon < 0 ? '' : v.slice(0, colon));
  return uri === undefined ? undefined : { uri, local: v.slice(colon + 1) };
}

/** The parameter's value: its text, or the UTF-8 text a base64 type carries. */
export function typedValue(param: string, type: QName | undefined, text: string): string {
  if (!type || !BASE64_TYPES.has(`${type.uri} ${type.local}`)) return text;
  const b64 = text.replace(/\s+/g, '');
  if (b64.length % 4 !== 0 || !BASE64.test(b64)) {
    throw fail(
      'InvalidValue',
      `${param} is typed ${type.local} but is not base64; send it as text (xsi:type="xsd:string") or as base64 of its UTF-8 bytes.`,
      { parameter: param },
    );
  }
  try {
    return utf8.decode(Buffer.from(b64, 'base64'));
  } catch {
    throw fail(
      'InvalidValue',
      `${param} is typed ${type.local} but its bytes are not UTF-8 text; send the UTF-8 bytes of the text.`,
      { parameter: param },
    );
  }
}
