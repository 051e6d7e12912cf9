// Node.js with the npm package `soap` through the WSDL: the seven operations over SOAP 1.1 and 1.2, then a fault.
// Usage: node client.mjs <endpoint>
import soap from 'soap';

const endpoint = process.argv[2];
/** anyType results come as {attributes: {xsi:type}, $value} (the xsi:typed string); ProcessRequest's as a string. */
const text = (r) => (typeof r === 'string' ? r : r.$value);
const calls = [
  [
    'GetPredictiveOptionsSearchContacts',
    { StringOfJSONParameters: '{"Text":"zoë ång"}', DBName: 'Demo', AsType: 'JSON' },
    (r) => JSON.parse(r).Options[0].ContactId,
  ],
  [
    'GetPredictiveOptions',
    { StringOfJSONParameters: '{"Field":"City","Text":"stockh"}', DBName: 'Demo', AsType: 'JSON' },
    (r) => JSON.parse(r).Options[0].Value,
  ],
  [
    'GetSearchResults',
    {
      StringOfJSONParameters: '{"Query":"john smith","PageSize":5}',
      DBName: 'Demo',
      AsType: 'JSON',
    },
    (r) => JSON.parse(r).Rows[0].ContactId,
  ],
  [
    'GetSearchResultHeaders',
    { StringOfJSONParameters: '{"View":"Compact"}', DBName: 'Demo', AsType: 'JSON' },
    (r) => JSON.parse(r).Headers[0].Field,
  ],
  [
    'GetSearchFilters',
    { StringOfJSONParameters: '{}', DBName: 'Demo', AsType: 'JSON' },
    (r) => JSON.parse(r).Filters.find((f) => f.Field === 'Country').Control,
  ],
  [
    'GetRequestSupport',
    { StringOfJSONParameters: '{"Request":"ImportContacts"}', AsType: 'JSON' },
    (r) => JSON.parse(r).Requests[0].Request,
  ],
  [
    'ProcessRequest',
    { StringOfJSONParameters: '{"Request":"GetContact","DBName":"Demo","ContactId":"k1"}' },
    (r) => /<FirstName>([^<]*)<\/FirstName>/.exec(r)[1],
  ],
];
const row = (binding, op, value) =>
  console.log(`${'node'.padEnd(7)} ${binding.padEnd(7)} ${op.padEnd(35)} ${value}`);

console.log(`${'toolkit'.padEnd(7)} ${'binding'.padEnd(7)} ${'operation'.padEnd(35)} result`);
for (const [binding, port] of [
  ['soap11', 'APISoap'],
  ['soap12', 'APISoap12'],
]) {
  const client = await soap.createClientAsync(`${endpoint}?WSDL`, {
    endpoint,
    forceSoap12Headers: binding === 'soap12',
  });
  const api = client.API[port];
  const call = (op, args) =>
    new Promise((resolve, reject) =>
      api[op](args, (err, result) => (err ? reject(err) : resolve(result))),
    );
  for (const [op, args, read] of calls) {
    let value;
    try {
      value = read(text((await call(op, args))[`${op}Result`]));
    } catch (e) {
      value = `ERROR ${e.message}`;
    }
    row(binding, op, value);
  }
  let value = 'ERROR no fault';
  try {
    await call('GetSearchResults', {
      StringOfJSONParameters: '{}',
      DBName: 'NoSuchDb',
      AsType: 'JSON',
    });
  } catch (e) {
    // e.root is the parsed response envelope; the detail's Error has its child elements as properties.
    const fault = e.root.Envelope.Body.Fault;
    const code = binding === 'soap11' ? fault.faultcode : fault.Code.Value;
    const error = (fault.detail ?? fault.Detail).Error;
    value = `${code.split(':').pop()} ${error.Code} ${error.Parameter}`;
  }
  row(binding, 'fault', value);
}
