"""Python suds through the WSDL (suds speaks SOAP 1.1 only): the seven operations, then a fault.
Usage: python3 client.py <endpoint>"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from python_calls import CALLS  # noqa: E402 (shared with the other Python toolkit)

from suds import WebFault
from suds.client import Client

endpoint = sys.argv[1]



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
