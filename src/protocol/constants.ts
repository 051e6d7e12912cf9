/** Envelope namespaces and content types of the four bindings (INTERFACE.md §4, golden/). */

export const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

export type SoapVersion = '1.1' | '1.2';

export const CONTENT_TYPE = {
  soap11: 'text/xml; charset=utf-8',
  soap12: 'application/soap+xml; charset=utf-8',
  xml: 'text/xml; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
} as const;

export const XML_DECL = '<?xml version="1.0" encoding="utf-8"?>';

/** golden README "Every response": `private, max-age=0` once the method ran, `private` when the request failed before. */
export const CACHE_RAN = 'private, max-age=0';
export const CACHE_NOT_RAN = 'private';
