/**
 * The real npm `soap` client loads our WSDL and calls all seven operations over SOAP 1.1 and 1.2
 * against the real service. node-soap reads the `xsi:type="xsd:string"` result as {attributes, $value},
 * as it does against the ASMX runtime.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import soap from 'soap';
import { contact } from './cases/store.case.ts';
import { startRealService, type RealService } from './support/real-service.ts';

let svc: RealService;
before(async () => {
  svc = await startRealService({
    seedDemo: 300,
    contacts: [
      contact('k1', 'Zoë', 'Ångström', {
        Organization: 'Nordic AB',
        City: 'Stockholm',
        Country: 'SE',
      }),
      contact('k2', 'John', 'Smith', { Organization: 'Acme', City: 'Boston', Country: 'US' }),
    ],
  });
});
after(async () => {
  await svc?.close();
});

/** The anyType result as text: node-soap gives {attributes, $value} for an xsi:typed string. */
function text(result: unknown): string {
  const r = result as { attributes?: unknown; $value?: string } | string;
  return typeof r === 'string' ? r : r.$value!;
}

for (const version of ['1.1', '1.2'] as const) {
  describe(`node-soap over SOAP ${version}`, () => {
    let client: soap.Client;
    let port: Record<
      string,
      (args: object, cb: (err: unknown, res: Record<string, unknown>) => void) => void
    >;
    const call = (op: string, args: object) =>
      new Promise<Record<string, unknown>>((res, rej) =>
        port[op](args, (e, r) => (e ? rej(e) : res(r))),
      );

    before(async () => {
      client = await soap.createClientAsync(`${svc.endpoint}?WSDL`, {
        endpoint: svc.endpoint,
        forceSoap12Headers: version === '1.2',
      });
      port = (client as unknown as Record<string, Record<string, typeof port>>).API[
        version === '1.1' ? 'APISoap' : 'APISoap12'
      ];
    });

    test('GetPredictiveOptionsSearchContacts (// namespace) finds Zoë Ångström from "zoe ang"', async () => {
      const r = await call('GetPredictiveOptionsSearchContacts', {
        StringOfJSONParameters: '{"Text":"zoe ang"}',
        DBName: 'Demo',
        AsType: 'JSON',
      });
      const doc = JSON.parse(text(r.GetPredictiveOptionsSearchContactsResult));
      assert.equal(doc.Options[0].ContactId, 'k1');
      assert.deepEqual(
        doc.Options[0].Matches.filter((m: { Field: string }) => m.Field === 'DisplayName').map(
          (m: { Start: number; Length: number }) => [m.Start, m.Length],
        ),
        [
          [0, 3],
          [4, 3],
        ],
      );
      assert.match(
        client.lastRequest!,
        /\/\/tempuri\.org\/API\/GetPredictiveOptionsSearchContactsRequestData/,
      );
    });

    test('GetPredictiveOptions suggests cities', async () => {
      const r = await call('GetPredictiveOptions', {
        StringOfJSONParameters: '{"Field":"City","Text":"stockh"}',
        DBName: 'Demo',
        AsType: 'JSON',
      });
      const doc = JSON.parse(text(r.GetPredictiveOptionsResult));
      assert.equal(doc.Options[0].Value, 'Stockholm');
    });

    test('GetSearchResults returns the matching row with ContactId', async () => {
      const r = await call('GetSearchResults', {
        StringOfJSONParameters: '{"Query":"john smith","PageSize":5}',
        DBName: 'Demo',
        AsType: 'JSON',
      });
      const doc = JSON.parse(text(r.GetSearchResultsResult));
      assert.equal(doc.Rows[0].ContactId, 'k2');
      assert.ok(doc.Total >= 1);
    });

    test('GetSearchResultHeaders and GetSearchFilters come back', async () => {
      const h = JSON.parse(
        text(
          (
            await call('GetSearchResultHeaders', {
              StringOfJSONParameters: '{"View":"Compact"}',
              DBName: 'Demo',
              AsType: 'JSON',
            })
          ).GetSearchResultHeadersResult,
        ),
      );
      assert.deepEqual(
        h.Headers.filter((x: { Visible: boolean }) => x.Visible).map(
          (x: { Field: string }) => x.Field,
        ),
        ['DisplayName', 'Emails', 'Phones'],
      );
      const f = JSON.parse(
        text(
          (
            await call('GetSearchFilters', {
              StringOfJSONParameters: '{}',
              DBName: 'Demo',
              AsType: 'JSON',
            })
          ).GetSearchFiltersResult,
        ),
      );
      assert.ok(
        f.Filters.some(
          (x: { Field: string; Control: string }) =>
            x.Field === 'Country' && x.Control === 'MultiSelect',
        ),
      );
    });

    test('GetRequestSupport (GetRequestSupportParameters action) describes ImportContacts', async () => {
      const r = await call('GetRequestSupport', {
        StringOfJSONParameters: '{"Request":"ImportContacts"}',
        AsType: 'JSON',
      });
      const doc = JSON.parse(text(r.GetRequestSupportResult));
      assert.equal(doc.Requests[0].Request, 'ImportContacts');
      assert.ok(doc.Requests[0].File.Columns.some((c: { Name: string }) => c.Name === 'Emails'));
    });

    test('ProcessRequest returns the Response XML as a string', async () => {
      const r = await call('ProcessRequest', {
        StringOfJSONParameters: '{"Request":"GetContact","DBName":"Demo","ContactId":"k1"}',
      });
      assert.match(
        String(r.ProcessRequestResult),
        /^<Response Request="GetContact" Status="OK">.*<FirstName>Zoë<\/FirstName>/,
      );
    });

    test('AsType XML arrives as element content', async () => {
      const r = await call('GetSearchResults', {
        StringOfJSONParameters: '{"Query":"john smith"}',
        DBName: 'Demo',
        AsType: 'XML',
      });
      const doc = r.GetSearchResultsResult as Record<string, unknown>;
      assert.ok(JSON.stringify(doc).includes('k2'));
    });

    test('a client mistake is a Client/Sender fault with its code', async () => {
      await assert.rejects(
        call('GetSearchResults', {
          StringOfJSONParameters: '{"Filters":[{"Field":"Citty","Op":"Eq","Values":["x"]}]}',
          DBName: 'Demo',
          AsType: 'JSON',
        }),
        (e: { body?: string }) => {
          assert.match(
            String(e.body),
            version === '1.1'
              ? /<faultcode>soap:Client<\/faultcode>/
              : /<soap:Value>soap:Sender<\/soap:Value>/,
          );
          assert.match(
            String(e.body),
            /<Error Code="UnknownField" Parameter="StringOfJSONParameters" Path="\$\.Filters\[0\]\.Field"/,
          );
          return true;
        },
      );
    });
  });
}

describe('node-soap with API keys (HTTP Basic)', () => {
  let secured: RealService;
  before(async () => {
    secured = await startRealService({
      config: { keys: [{ id: 'app', secret: 'app-secret', scopes: ['read'], databases: '*' }] },
    });
  });
  after(async () => {
    await secured?.close();
  });

  test('Basic credentials get through; none or wrong ones get 401', async () => {
    const wsdl = `${secured.endpoint}?WSDL`;
    const ok = await soap.createClientAsync(wsdl, { endpoint: secured.endpoint });
    ok.setSecurity(new soap.BasicAuthSecurity('app', 'app-secret'));
    const [r] = await ok.GetSearchResultHeadersAsync({
      StringOfJSONParameters: '{}',
      DBName: 'Demo',
      AsType: 'JSON',
    });
    assert.equal(JSON.parse(text(r.GetSearchResultHeadersResult)).View, 'Default');
    const wrong = await soap.createClientAsync(wsdl, { endpoint: secured.endpoint });
    wrong.setSecurity(new soap.BasicAuthSecurity('app', 'nope'));
    await assert.rejects(
      wrong.GetSearchResultHeadersAsync({
        StringOfJSONParameters: '{}',
        DBName: 'Demo',
        AsType: 'JSON',
      }),
      (e: { response?: { status?: number } }) => e.response?.status === 401,
    );
    const none = await soap.createClientAsync(wsdl, { endpoint: secured.endpoint });
    await assert.rejects(
      none.GetSearchResultHeadersAsync({
        StringOfJSONParameters: '{}',
        DBName: 'Demo',
        AsType: 'JSON',
      }),
      (e: { response?: { status?: number } }) => e.response?.status === 401,
    );
  });
});
