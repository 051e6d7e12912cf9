<?php
// PHP SoapClient in WSDL mode (ext/soap): the seven operations over SOAP 1.1 and 1.2, then a fault.
// Usage: php client.php <endpoint>   (…/API.asmx; the WSDL is <endpoint>?WSDL)
$endpoint = $argv[1];

$calls = [
    ['GetPredictiveOptionsSearchContacts', ['StringOfJSONParameters' => '{"Text":"zoë ång"}', 'DBName' => 'Demo', 'AsType' => 'JSON'],
        fn ($r) => json_decode($r)->Options[0]->ContactId],
    ['GetPredictiveOptions', ['StringOfJSONParameters' => '{"Field":"City","Text":"stockh"}', 'DBName' => 'Demo', 'AsType' => 'JSON'],
        fn ($r) => json_decode($r)->Options[0]->Value],
    ['GetSearchResults', ['StringOfJSONParameters' => '{"Query":"john smith","PageSize":5}', 'DBName' => 'Demo', 'AsType' => 'JSON'],
        fn ($r) => json_decode($r)->Rows[0]->ContactId],
    ['GetSearchResultHeaders', ['StringOfJSONParameters' => '{"View":"Compact"}', 'DBName' => 'Demo', 'AsType' => 'JSON'],
        fn ($r) => json_decode($r)->Headers[0]->Field],
    ['GetSearchFilters', ['StringOfJSONParameters' => '{}', 'DBName' => 'Demo', 'AsType' => 'JSON'],
        fn ($r) => array_values(array_filter(json_decode($r)->Filters, fn ($f) => $f->Field === 'Country'))[0]->Control],
    ['GetRequestSupport', ['StringOfJSONParameters' => '{"Request":"ImportContacts"}', 'AsType' => 'JSON'],
        fn ($r) => json_decode($r)->Requests[0]->Request],
    ['ProcessRequest', ['StringOfJSONParameters' => '{"Request":"GetContact","DBName":"Demo","ContactId":"k1"}'],
        fn ($r) => preg_match('#<FirstName>([^<]*)</FirstName>#', $r, $m) ? html_entity_decode($m[1], ENT_XML1) : null],
];

printf("%-7s %-7s %-35s %s\n", 'toolkit', 'binding', 'operation', 'result');
foreach (['soap11' => SOAP_1_1, 'soap12' => SOAP_1_2] as $binding => $version) {
    $client = new SoapClient("$endpoint?WSDL", ['soap_version' => $version, 'location' => $endpoint, 'cache_wsdl' => WSDL_CACHE_NONE]);
    foreach ($calls as [$op, $params, $read]) {
        try {
            $response = $client->$op($params);            // {"<op>Result": "…"}
            $value = $read($response->{"{$op}Result"});
        } catch (Throwable $e) {
            $value = 'ERROR ' . $e->getMessage();
        }
        printf("%-7s %-7s %-35s %s\n", 'php', $binding, $op, $value);
    }
    try {
        $client->GetSearchResults(['StringOfJSONParameters' => '{}', 'DBName' => 'NoSuchDb', 'AsType' => 'JSON']);
        $value = 'ERROR no fault';
    } catch (SoapFault $fault) {
        // faultcode is "soap:Client" / "soap:Sender"; the detail's child elements are properties.
        $class = preg_replace('/^.*:/', '', $fault->faultcode);
        $value = "$class {$fault->detail->Error->Code} {$fault->detail->Error->Parameter}";
    }
    printf("%-7s %-7s %-35s %s\n", 'php', $binding, 'fault', $value);
}
