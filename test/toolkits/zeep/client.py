"""Python zeep through the WSDL: the seven operations over the SOAP 1.1 and 1.2 ports, then a fault.
Usage: python3 client.py <endpoint>"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from python_calls import CALLS  # noqa: E402 (shared with the other Python toolkit)

import zeep
from zeep.exceptions import Fault

endpoint = sys.argv[1]
WSDL_NS = '{http://tempuri.org/API}'



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
