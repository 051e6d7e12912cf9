#!/usr/bin/perl
# Perl SOAP::Lite in its usual style (no WSDL: SOAP::Lite reads only rpc/encoded WSDLs well): uri is the
# service namespace http://tempuri.org/API/, SOAPAction is uri + method, parameters are named
# SOAP::Data with SOAP::Lite's own xsi:types (non-ASCII text goes as base64Binary). SOAP 1.1 and 1.2.
# Usage: perl client.pl <endpoint>
use strict;
use warnings;
use utf8;
use JSON::PP qw(decode_json);
use SOAP::Lite;

binmode STDOUT, ':encoding(UTF-8)';
my $endpoint = shift or die "usage: $0 <endpoint>\n";
my $json = JSON::PP->new->utf8(0);

my @calls = (
    ['GetPredictiveOptionsSearchContacts', '{"Text":"zoë ång"}', 'Demo', 'JSON', sub { $json->decode($_[0])->{Options}[0]{ContactId} }],
    ['GetPredictiveOptions', '{"Field":"City","Text":"stockh"}', 'Demo', 'JSON', sub { $json->decode($_[0])->{Options}[0]{Value} }],
    ['GetSearchResults', '{"Query":"john smith","PageSize":5}', 'Demo', 'JSON', sub { $json->decode($_[0])->{Rows}[0]{ContactId} }],
    ['GetSearchResultHeaders', '{"View":"Compact"}', 'Demo', 'JSON', sub { $json->decode($_[0])->{Headers}[0]{Field} }],
    ['GetSearchFilters', '{}', 'Demo', 'JSON', sub { (grep { $_->{Field} eq 'Country' } @{ $json->decode($_[0])->{Filters} })[0]{Control} }],
    ['GetRequestSupport', '{"Request":"ImportContacts"}', undef, 'JSON', sub { $json->decode($_[0])->{Requests}[0]{Request} }],
    ['ProcessRequest', '{"Request":"GetContact","DBName":"Demo","ContactId":"k1"}', undef, undef, sub { $_[0] =~ m{<FirstName>([^<]*)</FirstName>} ? $1 : undef }],
);

sub params {
    my ($text, $db, $as) = @_;
    my @p = (SOAP::Data->name(StringOfJSONParameters => $text));
    push @p, SOAP::Data->name(DBName => $db) if defined $db;
    push @p, SOAP::Data->name(AsType => $as) if defined $as;
    return @p;
}

printf "%-7s %-7s %-35s %s\n", 'toolkit', 'binding', 'operation', 'result';
for my $version ('1.1', '1.2') {
    my $binding = $version eq '1.1' ? 'soap11' : 'soap12';
    my $soap = SOAP::Lite->soapversion($version)
        ->uri('http://tempuri.org/API/')
        ->proxy($endpoint)
        ->on_action(sub { join '', @_ });    # SOAPAction: http://tempuri.org/API/<Operation>
    for my $call (@calls) {
        my ($op, $text, $db, $as, $read) = @$call;
        my $som = eval { $soap->call($op, params($text, $db, $as)) };
        my $value = !$som ? "ERROR $@" : $som->fault ? 'ERROR fault ' . ($som->faultstring // $som->valueof('//Fault/Reason/Text')) : $read->($som->result);
        printf "%-7s %-7s %-35s %s\n", 'perl', $binding, $op, $value // 'ERROR nothing read';
    }
    my $som = $soap->call('GetSearchResults', params('{}', 'NoSuchDb', 'JSON'));
    my $value = 'ERROR no fault';
    if (my $fault = $som->fault) {
        # The Fault element as a hash. SOAP::SOM's faultcode/faultdetail read only SOAP 1.1's names, so
        # SOAP 1.2's Code/Value and Detail are read from the hash; the detail holds the Error's child elements.
        my ($code, $detail) = $version eq '1.1' ? ($fault->{faultcode}, $fault->{detail}) : ($fault->{Code}{Value}, $fault->{Detail});
        (my $class = $code) =~ s/^.*://;    # soap:Client / soap:Sender
        $value = "$class $detail->{Error}{Code} $detail->{Error}{Parameter}";
    }
    printf "%-7s %-7s %-35s %s\n", 'perl', $binding, 'fault', $value;
}
