#!/bin/sh
# Generates the .NET proxies from the service's WSDL with Mono's wsdl (Debian mono-devel), compiles
# Client.cs against them with mcs and runs it. Usage: sh run.sh <endpoint>
set -eu
endpoint=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
wsdl -nologo -protocol:Soap -namespace:ContactSearch -out:"$work/Soap11.cs" "$endpoint?WSDL" >&2
wsdl -nologo -protocol:Soap12 -namespace:ContactSearch12 -out:"$work/Soap12.cs" "$endpoint?WSDL" >&2
mcs -nologo -out:"$work/client.exe" -r:System.Web.Services -r:System.Xml -r:Microsoft.CSharp -r:System.Core \
  "$here/Client.cs" "$work/Soap11.cs" "$work/Soap12.cs" >&2
mono "$work/client.exe" "$endpoint"
