// Calls to the service through the ASP.NET AJAX JSON binding (CONTRACT §5, §6), and the few XML
// answers of ProcessRequest read into plain objects.

const endpoint = location.pathname.replace(/\/[^/]*$/, '') + '/API.asmx';

/** A failed call: `code` is the service's error code, or 'Offline' / 'Network' / 'Http'. */
export class CallError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export async function call(db, op, params, asType = 'JSON', signal) {
  return JSON.parse(await callText(db, op, params, asType, signal));
}

/** The operation's result as the text the binding carries in `d`. */
async function callText(db, op, params, asType, signal) {
  const body = { StringOfJSONParameters: JSON.stringify(params), DBName: db, AsType: asType };
  let res;
  try {
    res = await fetch(`${endpoint}/${op}`, {
      method: 'POST',
      signal,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify(body),
    });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw navigator.onLine === false
      ? new CallError('Offline', 'You are offline. Reconnect, then retry.')
      : new CallError(
          'Network',
          'The service could not be reached. Check your connection, then retry.',
        );
  }
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CallError(
      'Http',
      `The service answered HTTP ${res.status}${text.trim() ? `: ${text.trim().slice(0, 200)}` : ''}.`,
    );
  }
  if (!res.ok)
    throw new CallError(
      json.Code || 'Http',
      json.Message || `The service answered HTTP ${res.status}.`,
    );
  return json.d;
}

/** ProcessRequest: its answer is an XML `<Response Status>` document; a Rejected one becomes a CallError. */
export async function processRequest(db, request, members = {}) {
  const xml = await callText(
    db,
    'ProcessRequest',
    { Request: request, DBName: db, ...members },
    'JSON',
  );
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  const response = doc.documentElement;
  if (!response || response.nodeName !== 'Response')
    throw new CallError('Http', 'The service answered something that is not a Response.');
  if (response.getAttribute('Status') === 'Rejected') {
    const reasons = [...response.getElementsByTagName('Error')].map((e) =>
      [e.getAttribute('Field'), e.getAttribute('Reason')].filter(Boolean).join(': '),
    );
    throw new CallError('Rejected', reasons.join('; ') || 'The service refused the request.');
  }
  return response;
}
