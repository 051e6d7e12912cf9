/**
 * The WSDL (golden doc-wsdl-upper): four bindings APISoap, APISoap12, APIHttpGet, APIHttpPost, one
 * schema per request/response namespace (written exactly as declared, `//host/...` included),
 * anyType results untyped and ProcessRequest's result `s:string`. Generated from the operation table.
 */
import {
  OPERATIONS,
  httpResultNamespace,
  requestNamespace,
  responseNamespace,
  soapAction,
  type OperationDef,
} from '../operations/table.ts';
import { escapeAttr } from '../render/xml.ts';

const ops = OPERATIONS as readonly OperationDef[];

export function wsdl(nsBase: string, address: string): string {
  const tns = httpResultNamespace(nsBase);
  const prefixes = ops.flatMap((op, i) => [
    [`s${2 * i}`, requestNamespace(op, nsBase)],
    [`s${2 * i + 1}`, responseNamespace(op, nsBase)],
  ]);
  const xmlns = [
    ['tm', 'http://microsoft.com/wsdl/mime/textMatching/'],
    ['soapenc', 'http://schemas.xmlsoap.org/soap/encoding/'],
    ['mime', 'http://schemas.xmlsoap.org/wsdl/mime/'],
    ['tns', tns],
    ['s', 'http://www.w3.org/2001/XMLSchema'],
    ['soap', 'http://schemas.xmlsoap.org/wsdl/soap/'],
    ['soap12', 'http://schemas.xmlsoap.org/wsdl/soap12/'],
    ['http', 'http://schemas.xmlsoap.org/wsdl/http/'],
    ...prefixes,
  ]
    .map(([p, ns]) => ` xmlns:${p}="${escapeAttr(ns)}"`)
    .join('');
  const L: string[] = [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<wsdl:definitions${xmlns} targetNamespace="${escapeAttr(tns)}" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">`,
    '  <wsdl:types>',
  ];
  for (const op of ops) {
    L.push(
      `    <s:schema elementFormDefault="qualified" targetNamespace="${escapeAttr(requestNamespace(op, nsBase))}">`,
      `      <s:element name="${op.name}">`,
      '        <s:complexType>',
      '          <s:sequence>',
      ...op.params.map(
        (p) => `            <s:element minOccurs="0" maxOccurs="1" name="${p}" type="s:string" />`,
      ),
      '          </s:sequence>',
      '        </s:complexType>',
      '      </s:element>',
      '    </s:schema>',
      `    <s:schema elementFormDefault="qualified" targetNamespace="${escapeAttr(responseNamespace(op, nsBase))}">`,
      `      <s:element name="${op.name}">`,
      '        <s:complexType>',
      '          <s:sequence>',
      `            <s:element minOccurs="0" maxOccurs="1" name="${op.name}Result"${op.result === 'string' ? ' type="s:string"' : ''} />`,
      '          </s:sequence>',
      '        </s:complexType>',
      '      </s:element>',
      '    </s:schema>',
    );
  }
  L.push(
    `    <s:schema elementFormDefault="qualified" targetNamespace="${escapeAttr(tns)}">`,
    '      <s:element name="anyType" nillable="true" />',
    '      <s:element name="string" nillable="true" type="s:string" />',
    '    </s:schema>',
    '  </wsdl:types>',
  );
  ops.forEach((op, i) => {
    L.push(
      `  <wsdl:message name="${op.name}SoapIn">`,
      `    <wsdl:part name="parameters" element="s${2 * i}:${op.name}" />`,
      '  </wsdl:message>',
      `  <wsdl:message name="${op.name}SoapOut">`,
      `    <wsdl:part name="parameters" element="s${2 * i + 1}:${op.name}" />`,
      '  </wsdl:message>',
    );
  });
  for (const verb of ['HttpGet', 'HttpPost']) {
    for (const op of ops) {
      L.push(
        `  <wsdl:message name="${op.name}${verb}In">`,
        ...op.params.map((p) => `    <wsdl:part name="${p}" type="s:string" />`),
        '  </wsdl:message>',
        `  <wsdl:message name="${op.name}${verb}Out">`,
        `    <wsdl:part name="Body" element="tns:${op.result === 'string' ? 'string' : 'anyType'}" />`,
        '  </wsdl:message>',
      );
    }
  }
  for (const [port, suffix] of [
    ['APISoap', 'Soap'],
    ['APIHttpGet', 'HttpGet'],
    ['APIHttpPost', 'HttpPost'],
  ]) {
    L.push(`  <wsdl:portType name="${port}">`);
    for (const op of ops) {
      L.push(
        `    <wsdl:operation name="${op.name}">`,
        `      <wsdl:input message="tns:${op.name}${suffix}In" />`,
        `      <wsdl:output message="tns:${op.name}${suffix}Out" />`,
        '    </wsdl:operation>',
      );
    }
    L.push('  </wsdl:portType>');
  }
  for (const [name, p] of [
    ['APISoap', 'soap'],
    ['APISoap12', 'soap12'],
  ]) {
    L.push(
      `  <wsdl:binding name="${name}" type="tns:APISoap">`,
      `    <${p}:binding transport="http://schemas.xmlsoap.org/soap/http" />`,
    );
    for (const op of ops) {
      L.push(
        `    <wsdl:operation name="${op.name}">`,
        `      <${p}:operation soapAction="${escapeAttr(soapAction(op, nsBase))}" style="document" />`,
        '      <wsdl:input>',
        `        <${p}:body use="literal" />`,
        '      </wsdl:input>',
        '      <wsdl:output>',
        `        <${p}:body use="literal" />`,
        '      </wsdl:output>',
        '    </wsdl:operation>',
      );
    }
    L.push('  </wsdl:binding>');
  }
  for (const [name, verb, input] of [
    ['APIHttpGet', 'GET', '<http:urlEncoded />'],
    ['APIHttpPost', 'POST', '<mime:content type="application/x-www-form-urlencoded" />'],
  ]) {
    L.push(
      `  <wsdl:binding name="${name}" type="tns:${name}">`,
      `    <http:binding verb="${verb}" />`,
    );
    for (const op of ops) {
      L.push(
        `    <wsdl:operation name="${op.name}">`,
        `      <http:operation location="/${op.name}" />`,
        '      <wsdl:input>',
        `        ${input}`,
        '      </wsdl:input>',
        '      <wsdl:output>',
        '        <mime:mimeXml part="Body" />',
        '      </wsdl:output>',
        '    </wsdl:operation>',
      );
    }
    L.push('  </wsdl:binding>');
  }
  const a = escapeAttr(address);
  L.push(
    '  <wsdl:service name="API">',
    '    <wsdl:port name="APISoap" binding="tns:APISoap">',
    `      <soap:address location="${a}" />`,
    '    </wsdl:port>',
    '    <wsdl:port name="APISoap12" binding="tns:APISoap12">',
    `      <soap12:address location="${a}" />`,
    '    </wsdl:port>',
    '    <wsdl:port name="APIHttpGet" binding="tns:APIHttpGet">',
    `      <http:address location="${a}" />`,
    '    </wsdl:port>',
    '    <wsdl:port name="APIHttpPost" binding="tns:APIHttpPost">',
    `      <http:address location="${a}" />`,
    '    </wsdl:port>',
    '  </wsdl:service>',
    '</wsdl:definitions>',
  );
  return L.join('\n');
}

/** DISCO document (golden doc-disco). */
export function disco(nsBase: string, address: string): string {
  const a = escapeAttr(address);
  const tns = escapeAttr(httpResultNamespace(nsBase));
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<discovery xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.xmlsoap.org/disco/">',
    `  <contractRef ref="${a}?wsdl" docRef="${a}" xmlns="http://schemas.xmlsoap.org/disco/scl/" />`,
    `  <soap address="${a}" xmlns:q1="${tns}" binding="q1:APISoap" xmlns="http://schemas.xmlsoap.org/disco/soap/" />`,
    `  <soap address="${a}" xmlns:q2="${tns}" binding="q2:APISoap12" xmlns="http://schemas.xmlsoap.org/disco/soap/" />`,
    '</discovery>',
  ].join('\n');
}
