#!/bin/sh
# Generates the JAX-WS proxies from the service's WSDL (wsimport, Debian package jaxws), compiles
# Client.java against them and runs it. Usage: sh run.sh <endpoint>
set -eu
endpoint=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# jaxws-rt.jar's manifest names the rest of the runtime (JAXB, SAAJ, stax-ex …) in /usr/share/java.
cp=/usr/share/java/jaxws-rt.jar:/usr/share/java/javax.activation.jar
# -extension: also the SOAP 1.2 port (APISoap12), which JAX-WS 2.3 calls non-standard.
mkdir -p "$work/src" "$work/classes"
wsimport -quiet -extension -Xnocompile -s "$work/src" "$endpoint?WSDL" >&2
javac -nowarn -encoding UTF-8 -cp "$cp" -d "$work/classes" $(find "$work/src" -name '*.java') "$here/Client.java" >&2
java -Dfile.encoding=UTF-8 -Dsun.stdout.encoding=UTF-8 -cp "$work/classes:$cp" Client "$endpoint"
