"""The seven calls the Python toolkits (zeep, suds) make, and how each reads its result."""
import json
import re

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
