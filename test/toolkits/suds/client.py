"""Python suds through the WSDL (suds speaks SOAP 1.1 only): the seven operations, then a fault.
Usage: python3 client.py <endpoint>"""
import json
import re
import sys

from suds import WebFault
from suds.client import Client

endpoint = sys.argv[1]

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


def row(op, value):
    print(f'{"suds":<7} {"soap11":<7} {op:<35} {value}', flush=True)


print(f'{"toolkit":<7} {"binding":<7} {"operation":<35} result')
# port='APISoap': suds reads the SOAP 1.1 binding; location overrides the WSDL's address.
client = Client(f'{endpoint}?WSDL', location=endpoint, cache=None)
service = client.service['APISoap']
for op, params, read in CALLS:
    try:
        value = read(str(getattr(service, op)(**params)))  # the <op>Result text
    except Exception as e:  # noqa: BLE001 - every failure is a row of the table
        value = f'ERROR {type(e).__name__} {e}'
    row(op, value)
try:
    service.GetSearchResults(StringOfJSONParameters='{}', DBName='NoSuchDb', AsType='JSON')
    value = 'ERROR no fault'
except WebFault as e:
    # suds gives attributes with a leading underscore (e.fault.detail.Error._Code) and child elements without.
    error = e.fault.detail.Error
    value = f"{e.fault.faultcode.split(':')[-1]} {error.Code} {error.Parameter}"
row('fault', value)
