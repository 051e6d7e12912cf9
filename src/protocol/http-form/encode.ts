/**
 * HTTP GET/POST responses (golden get-*, post-*): `<anyType …>` for a document result (string or
 * element), `<string …>` for ProcessRequest, and 500 text/plain errors carrying only our message.
 */
import type { ServiceError } from '../../errors.ts';
import { httpResultNamespace, OPERATIONS, type OperationDef } from '../../operations/table.ts';
import type { OperationResult } from '../../service/types.ts';
import { CACHE_NOT_RAN, CACHE_RAN, CONTENT_TYPE, XML_DECL, XSD_NS, XSI_NS } from '../constants.ts';
import { encodedOnce, frame, framed, type WireResponse } from '../wire.ts';
import { escapeAttr, escapeText, writeElement } from '../../render/xml.ts';

export function formResultEncoder(nsBase: string) {
  const ns = escapeAttr(httpResultNamespace(nsBase));
  const anyText = frame(
    `${XML_DECL}\n<anyType xmlns:q1="${XSD_NS}" d1p1:type="q1:string" xmlns:d1p1="${XSI_NS}" xmlns="${ns}">`,
    '</anyType>',
  );
  const elementOpen = `${XML_DECL}\n<anyType xmlns="${ns}">`;
  const string = frame(`${XML_DECL}\n<string xmlns="${ns}">`, '</string>');
  const headers = { 'Content-Type': CONTENT_TYPE.xml, 'Cache-Control': CACHE_RAN };
  const encode = (op: OperationDef) =>
    encodedOnce((result) =>
      result.kind === 'element'
        ? {
            status: 200,
            headers,
            body: `${elementOpen}${writeElement(result.element, ' xmlns=""', { level: 1 })}\n</anyType>`,
          }
        : framed(headers, op.result === 'string' ? string : anyText, escapeText(result.text)),
    );
  const byOp = new Map(OPERATIONS.map((op) => [op.name, encode(op)]));
  return (op: OperationDef, result: OperationResult): WireResponse => byOp.get(op.name)!(result);
}

/**
 * golden customerrors-on-get-*: 500 text/plain, the message and a newline; never a stack trace.
 * The body has no room for the stable code (CONTRACT §7), so it travels in `X-Error-Code`.
 * Unavailable is 503, the status load balancers and HTTP clients retry on.
 */
export function formError(err: ServiceError, ran: boolean): WireResponse {
  return {
    status: err.code === 'Unavailable' ? 503 : 500,
    headers: {
      'Content-Type': CONTENT_TYPE.text,
      'Cache-Control': ran ? CACHE_RAN : CACHE_NOT_RAN,
      'X-Error-Code': err.code,
    },
    body: `${err.message}\n`,
  };
}
