"""Python zeep through the WSDL: the seven operations over the SOAP 1.1 and 1.2 ports, then a fault.
Usage: python3 client.py <endpoint>"""
import json
import re
import sys

import zeep
from zeep.exceptions import Fault

endpoint = sys.argv[1]
WSDL_NS = '{http://tempuri.org/API}'

CALLS = [
    ('GetPredictiveOptionsSearchContacts', dict(StringOfJSONParameters='{"Text":"zoë ång"}', DBName='Demo', AsType='JSON'),
     lambda r: json.loads(r)['Options'][0]['ContactId']),
    ('GetPredictiveOptions', dict(StringOfJSONParameters='{"Field":"City","Text":"stockh"}', DBName='Demo', AsType='JSON'),
     lambda r: json.loads(r)['Options'][0]['Value']),
    ('GetSearchResults', dict(StringOfJSONParameters='{"Query":"john smith","PageSize":5}', DBName='Demo', AsType='JSON'),
     lambda r: json.loads(r)['Rows'][0]['ContactId']),
    ('GetSearchResultHeaders', dict(StringOfJSONParameters='{"View":"Compact"}', DBName='Demo', AsType='JSON'),
     lambda r: json.loads(r)['Headers'][0]['Field']),
    ('GetSearchFilters', dict(StringOfJSONParameters='{}', DBName='Demo', AsType='JSON'),
     lambda r: next(f['Control'] for f in json.loads(r)['Filters'] if f['Field'] == 'Country')),
    ('GetRequestSupport', dict(StringOfJSONParameters='{"Request":"ImportContacts"}', AsType='JSON'),
     lambda r: json.loads(r)['Requests'][0]['Request']),
    ('ProcessRequest', dict(StringOfJSONParameters='{"Request":"GetContact","DBName":"Demo","ContactId":"k1"}'),
     lambda r: re.search(r'<FirstName>([^<]*)</FirstName>', r).group(1)),
]


def row(binding, op, value):
    print(f'{"zeep":<7} {binding:<7} {op:<35} {value}', flush=True)


print(f'{"toolkit":<7} {"binding":<7} {"operation":<35} result')
client = zeep.Client(f'{endpoint}?WSDL')
for binding, name in [('soap11', 'APISoap'), ('soap12', 'APISoap12')]:
    service = client.create_service(f'{WSDL_NS}{name}', endpoint)
    for op, params, read in CALLS:
        try:
            value = read(getattr(service, op)(**params))  # the <op>Result: str (anyType with xsi:type string)
        except Exception as e:  # noqa: BLE001 - every failure is a row of the table
            value = f'ERROR {type(e).__name__} {e}'
        row(binding, op, value)
    try:
        service.GetSearchResults(StringOfJSONParameters='{}', DBName='NoSuchDb', AsType='JSON')
        value = 'ERROR no fault'
    except Fault as fault:
        # fault.code is "soap:Client" / "soap:Sender"; fault.detail is the detail element (lxml).
        error = fault.detail.find('Error')
        value = f"{fault.code.split(':')[-1]} {error.findtext('Code')} {error.findtext('Parameter')}"
    row(binding, 'fault', value)
