/**
 * The service help page and the `?op=<Operation>` pages (CONTRACT §10): sample SOAP 1.1, SOAP 1.2,
 * HTTP GET and HTTP POST requests and responses, like Microsoft's ASMX pages, and an HTTP POST test
 * form shown to loopback callers only (CONTRACT §8). Everything comes from the operation table.
 */
import {
  OPERATIONS,
  httpResultNamespace,
  requestNamespace,
  responseNamespace,
  soapAction,
  type OperationDef,
} from '../operations/table.ts';
import { SOAP11_NS, SOAP12_NS, XSD_NS, XSI_NS } from './constants.ts';
import { escapeAttr, escapeText } from '../render/xml.ts';

const h = (s: string) => escapeAttr(s);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${h(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:24px;max-width:980px;color:#1d2330}h1{font-size:22px}h2{font-size:17px;margin-top:28px}
pre{background:#f4f5f8;padding:10px;overflow:auto;font-size:12.5px}code{background:#f4f5f8}.ph{color:#1a56c9}
form td{padding:3px 8px}input[type=text]{width:520px}</style></head>
<body>${body}</body></html>`;
}

export function servicePage(endpointPath: string): string {
  const items = OPERATIONS.map(
    (o) => `<li><a href="${h(endpointPath)}?op=${o.name}">${o.name}</a> — ${h(o.summary)}</li>`,
  ).join('\n');
  return page(
    'API web service',
    `<h1>API</h1>
<p>Contact Search web service. The following operations are supported. For a formal definition, see the
<a href="${h(endpointPath)}?WSDL">service description</a> (<a href="${h(endpointPath)}?disco">disco</a>).</p>
<p>Try it in the browser: <a href="${h(endpointPath.replace(/API\.asmx$/, 'Search.html'))}">search page</a>.</p>
<ul>
${items}
</ul>`,
  );
}

const placeholder = (p: string) => p.toLowerCase();

function soapSample(
  op: OperationDef,
  nsBase: string,
  v: '1.1' | '1.2',
  host: string,
  path: string,
): [string, string] {
  const pre = v === '1.1' ? 'soap' : 'soap12';
  const env = v === '1.1' ? SOAP11_NS : SOAP12_NS;
  const ct = v === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8';
  const action = v === '1.1' ? `\nSOAPAction: "${soapAction(op, nsBase)}"` : '';
  const params = op.params.map((p) => `      <${p}>${placeholder(p)}</${p}>`).join('\n');
  const envelope = (inner: string) => `<?xml version="1.0" encoding="utf-8"?>
<${pre}:Envelope xmlns:xsi="${XSI_NS}" xmlns:xsd="${XSD_NS}" xmlns:${pre}="${env}">
  <${pre}:Body>
${inner}
  </${pre}:Body>
</${pre}:Envelope>`;
  const req = `POST ${path} HTTP/1.1
Host: ${host}
Content-Type: ${ct}
Content-Length: length${action}

${envelope(`    <${op.name} xmlns="${requestNamespace(op, nsBase)}">\n${params}\n    </${op.name}>`)}`;
  const res = `HTTP/1.1 200 OK
Content-Type: ${ct}
Content-Length: length

${envelope(`    <${op.name} xmlns="${responseNamespace(op, nsBase)}">\n      <${op.name}Result>${op.result === 'string' ? 'string' : 'document'}</${op.name}Result>\n    </${op.name}>`)}`;
  return [req, res];
}

function httpSamples(
  op: OperationDef,
  nsBase: string,
  host: string,
  path: string,
): { get: [string, string]; post: [string, string] } {
  const query = op.params.map((p) => `${p}=${placeholder(p)}`).join('&');
  const root = op.result === 'string' ? 'string' : 'anyType';
  const res = `HTTP/1.1 200 OK
Content-Type: text/xml; charset=utf-8
Content-Length: length

<?xml version="1.0" encoding="utf-8"?>
<${root} xmlns="${httpResultNamespace(nsBase)}">${op.result === 'string' ? 'string' : 'document'}</${root}>`;
  return {
    get: [`GET ${path}/${op.name}?${query} HTTP/1.1\nHost: ${host}`, res],
    post: [
      `POST ${path}/${op.name} HTTP/1.1\nHost: ${host}\nContent-Type: application/x-www-form-urlencoded\nContent-Length: length\n\n${query}`,
      res,
    ],
  };
}

function sampleBlock(title: string, intro: string, [req, res]: [string, string]): string {
  const mark = (s: string) =>
    escapeText(s).replace(
      /\b(stringofjsonparameters|dbname|astype|string|document|length)\b/g,
      '<span class="ph">$1</span>',
    );
  return `<h2>${title}</h2><p>${intro}</p><pre>${mark(req)}</pre><pre>${mark(res)}</pre>`;
}

export function operationPage(
  op: OperationDef,
  nsBase: string,
  host: string,
  path: string,
  loopback: boolean,
): string {
  const form = loopback
    ? `<h2>Test</h2><p>To test the operation using the HTTP POST protocol, fill in the parameters and click Invoke.</p>
<form target="_blank" action="${h(path)}/${op.name}" method="POST"><table>
${op.params.map((p) => `<tr><td>${p}:</td><td><input type="text" name="${p}"${p === 'DBName' ? ' value="Demo"' : p === 'AsType' ? ' value="JSON"' : p === 'StringOfJSONParameters' ? ' value="{}"' : ''}></td></tr>`).join('\n')}
<tr><td></td><td><input type="submit" value="Invoke"></td></tr></table></form>`
    : '<h2>Test</h2><p>The test form is only available for requests from the local machine.</p>';
  const http = httpSamples(op, nsBase, host, path);
  return page(
    `API web service: ${op.name}`,
    `<h1>API</h1><p><a href="${h(path)}">Click here</a> for a complete list of operations.</p>
<h2>${op.name}</h2><p>${h(op.summary)}</p>${form}
${sampleBlock('SOAP 1.1', 'The following is a sample SOAP 1.1 request and response. The <span class="ph">placeholders</span> shown need to be replaced with actual values.', soapSample(op, nsBase, '1.1', host, path))}
${sampleBlock('SOAP 1.2', 'The following is a sample SOAP 1.2 request and response.', soapSample(op, nsBase, '1.2', host, path))}
${sampleBlock('HTTP GET', 'The following is a sample HTTP GET request and response.', http.get)}
${sampleBlock('HTTP POST', 'The following is a sample HTTP POST request and response.', http.post)}`,
  );
}

export function notFoundPage(what: string): string {
  return page('Not found', `<h1>The resource cannot be found.</h1><p>${h(what)}</p>`);
}

/** golden put-endpoint / put-op: "Request format is unrecognized[ for URL unexpectedly ending in '/Op']." */
export function unrecognizedFormatPage(endingIn?: string): string {
  const what = endingIn === undefined ? '' : ` for URL unexpectedly ending in '/${h(endingIn)}'`;
  return page(
    'Request format is unrecognized',
    `<h1>Request format is unrecognized${what}.</h1><p>Use GET for the help pages and WSDL, POST for SOAP, GET or POST for API.asmx/&lt;Operation&gt;.</p>`,
  );
}
