// Package apicore makes the answers of the web API's check and test
// routes (POST /api/v1/check, POST /api/v1/test) without HTTP: it reads
// a request (Decode, NewCheck, NewTest), does the work within the API's
// limits (Check.Run, Test.Run), and writes the answer as JSON (Encode).
//
// Package server calls it for every request, after it fetched the site's
// robots.txt when the request names a URL; the page's WebAssembly checker
// (internal/wasm) calls Pasted, which answers a request for a pasted file
// with the very octets the API answers it with, so that a file checked in
// the browser never leaves it.
package apicore
