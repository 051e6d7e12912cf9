/**
 * SOAP responses and faults, byte for byte as golden/ shows them: one line, prefix `soap` for both
 * versions, xmlns:xsi and xmlns:xsd on the envelope; faults per CONTRACT §10 (remote-client texts,
 * our code in detail, no stack traces).
 */
import { ServiceError, type ErrorCode } from '../../errors.ts';
import { responseNamespace, type OperationDef } from '../../operations/table.ts';
import type { OperationResult } from '../../service/types.ts';
import {
  CACHE_NOT_RAN,
  CACHE_RAN,
  CONTENT_TYPE,
  SOAP11_NS,
  SOAP12_NS,
  XML_DECL,
  XSD_NS,
  XSI_NS,
  type SoapVersion,
} from '../constants.ts';
import { encodedOnce, frame, framed, type WireResponse } from '../wire.ts';
import { escapeAttr, escapeText, writeElement } from '../../render/xml.ts';

const envelopeHead = (v: SoapVersion) =>
  `${XML_DECL}<soap:Envelope xmlns:soap="${v === '1.1' ? SOAP11_NS : SOAP12_NS}" xmlns:xsi="${XSI_NS}" xmlns:xsd="${XSD_NS}"><soap:Body>`;
const HEAD = { '1.1': envelopeHead('1.1'), '1.2': envelopeHead('1.2') };
const TAIL = '</soap:Body></soap:Envelope>';

export const soapContentType = (v: SoapVersion) =>
  v === '1.1' ? CONTENT_TYPE.soap11 : CONTENT_TYPE.soap12;

function response(
  v: SoapVersion,
  status: number,
  cache: string,
  inner: string,
  errorCode?: ErrorCode,
): WireResponse {
  return {
    status,
    headers: { 'Content-Type': soapContentType(v), 'Cache-Control': cache },
    body: HEAD[v] + inner + TAIL,
    errorCode,
  };
}

/** Prepared once per operation and namespace base (STYLE: lookups derived from the table built at startup). */
export function resultEncoder(op: OperationDef, nsBase: string) {
  const open = `<${op.name} xmlns="${escapeAttr(responseNamespace(op, nsBase))}"><${op.name}Result`;
  const close = `</${op.name}Result></${op.name}>`;
  const typed = op.result === 'string' ? '>' : ' xsi:type="xsd:string">';
  const frames = {
    '1.1': frame(HEAD['1.1'] + open + typed, close + TAIL),
    '1.2': frame(HEAD['1.2'] + open + typed, close + TAIL),
  };
  const encode = (v: SoapVersion) => {
    const headers = { 'Content-Type': soapContentType(v), 'Cache-Control': CACHE_RAN };
    return encodedOnce((result) =>
      result.kind === 'element'
        ? response(
            v,
            200,
            CACHE_RAN,
            `${open}>${writeElement(result.element, ' xmlns=""')}${close}`,
          )
        : framed(headers, frames[v], escapeText(result.text)),
    );
  };
  const byVersion = { '1.1': encode('1.1'), '1.2': encode('1.2') };
  return (v: SoapVersion, result: OperationResult): WireResponse => byVersion[v](result);
}

/**
 * `<Error Code=… Parameter=… Path=…><Code>…</Code><Parameter>…</Parameter><Path>…</Path></Error>`:
 * suds and .NET callers read the attributes; PHP's SoapFault->detail and SOAP::Lite's faultdetail
 * expose only child elements and text, so the same facts are children too (docs/ERRORS.md).
 */
function detail(err: ServiceError): string {
  let a = ` Code="${err.code}"`;
  let c = `<Code>${err.code}</Code>`;
  if (err.parameter) {
    a += ` Parameter="${escapeAttr(err.parameter)}"`;
    c += `<Parameter>${escapeText(err.parameter)}</Parameter>`;
  }
  if (err.path) {
    a += ` Path="${escapeAttr(err.path)}"`;
    c += `<Path>${escapeText(err.path)}</Path>`;
  }
  return `<Error${a}>${c}</Error>`;
}

/**
 * A fault. `ran` — the operation was invoked (its errors read "Server was unable to process request. ---> …"
 * as golden customerrors-on-* shows); routing and header errors carry just the message.
 */
export function fault(v: SoapVersion, err: ServiceError, ran: boolean): WireResponse {
  const text = escapeText(
    ran ? `Server was unable to process request. ---> ${err.message}` : err.message,
  );
  const mustUnderstand = err.code === 'MustUnderstand';
  const cls = mustUnderstand
    ? 'MustUnderstand'
    : v === '1.1'
      ? err.faultClass
      : err.faultClass === 'Client'
        ? 'Sender'
        : 'Receiver';
  const cache = ran || mustUnderstand ? CACHE_RAN : CACHE_NOT_RAN;
  if (v === '1.1') {
    const d = mustUnderstand ? '' : `<detail>${detail(err)}</detail>`; // golden soap11-mustunderstand-header: no detail
    return response(
      v,
      500,
      cache,
      `<soap:Fault><faultcode>soap:${cls}</faultcode><faultstring>${text}</faultstring>${d}</soap:Fault>`,
      err.code,
    );
  }
  const d = mustUnderstand ? '' : `<soap:Detail>${detail(err)}</soap:Detail>`;
  return response(
    v,
    500,
    cache,
    `<soap:Fault><soap:Code><soap:Value>soap:${cls}</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">${text}</soap:Text></soap:Reason>${d}</soap:Fault>`,
    err.code,
  );
}

/**
 * 400 or 415 with an empty body in the SOAP content type (golden soap11-malformed-xml, soap12-ct-soap11-envelope).
 * `errorCode`: what the empty body cannot say, for metrics and the log only.
 */
export function emptyStatus(
  status: number,
  contentType: string,
  errorCode: ErrorCode,
): WireResponse {
  return {
    status,
    headers: { 'Content-Type': contentType, 'Cache-Control': CACHE_NOT_RAN },
    body: '',
    errorCode,
  };
}
