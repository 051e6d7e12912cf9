import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crossSiteWriter } from './same-origin.ts';

const host = '127.0.0.1:8080';

test("no browser headers, the page's own origin, or Sec-Fetch-Site same-origin / none: not cross-site", () => {
  assert.equal(crossSiteWriter({ host }, []), undefined);
  assert.equal(crossSiteWriter({ host, origin: 'http://127.0.0.1:8080' }, []), undefined);
  assert.equal(
    crossSiteWriter(
      { host: 'contacts.example.com', origin: 'https://contacts.example.com:443' },
      [],
    ),
    undefined,
  );
  assert.equal(crossSiteWriter({ host, 'sec-fetch-site': 'same-origin' }, []), undefined);
  assert.equal(crossSiteWriter({ host, 'sec-fetch-site': 'none' }, []), undefined);
});

test('another origin, an opaque "null" origin, or Sec-Fetch-Site cross-site / same-site without Origin: cross-site', () => {
  assert.equal(
    crossSiteWriter({ host, origin: 'https://evil.example' }, []),
    'Origin https://evil.example',
  );
  assert.equal(
    crossSiteWriter({ host, origin: 'http://127.0.0.1:3000' }, []),
    'Origin http://127.0.0.1:3000',
    'another port is another origin',
  );
  assert.equal(crossSiteWriter({ host, origin: 'null' }, []), 'Origin null');
  assert.equal(
    crossSiteWriter({ host, 'sec-fetch-site': 'cross-site' }, []),
    'Sec-Fetch-Site cross-site',
  );
  assert.equal(
    crossSiteWriter({ host, 'sec-fetch-site': 'same-site' }, []),
    'Sec-Fetch-Site same-site',
  );
  assert.equal(
    crossSiteWriter({ origin: 'http://127.0.0.1:8080' }, []),
    'Origin http://127.0.0.1:8080',
    'no Host: nothing to be the same as',
  );
});

test('allowedOrigins lets listed pages write (exact origin, case and default port aside); "*" any', () => {
  const allowed = ['https://Intranet.example.com:443'];
  assert.equal(
    crossSiteWriter({ host, origin: 'https://intranet.example.com' }, allowed),
    undefined,
  );
  assert.equal(
    crossSiteWriter({ host, origin: 'http://intranet.example.com' }, allowed),
    'Origin http://intranet.example.com',
    'scheme counts',
  );
  assert.equal(
    crossSiteWriter({ host, origin: 'https://evil.example' }, allowed),
    'Origin https://evil.example',
  );
  assert.equal(crossSiteWriter({ host, origin: 'https://evil.example' }, ['*']), undefined);
});
