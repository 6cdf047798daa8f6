//go:build js && wasm

// Command wasm is the checker of the web page, built for the browser
// (GOOS=js GOARCH=wasm) by go generate ./server (internal/tools/wasmbuild)
// and served by robots serve: it checks, fixes and tests a pasted
// robots.txt in the page, so that the file never leaves the browser.
//
// It sets globalThis.robotsChecker to an object with two functions,
// check(request) and test(request), which take the JSON request of POST
// /api/v1/check and POST /api/v1/test for a pasted file (a string) and
// return {status, body}: the HTTP status and the JSON the API answers
// with, octet for octet (apicore.Pasted), which the page draws as it
// draws the server's answer.
package main

import (
	"syscall/js"

	"github.com/robotskit/robots/internal/apicore"
)

func main() {
	checker := js.Global().Get("Object").New()
	for _, route := range []string{apicore.RouteCheck, apicore.RouteTest} {
		checker.Set(route, js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) != 1 || args[0].Type() != js.TypeString {
				status, body := apicore.Pasted(route, nil)
				return answer(status, body)
			}
			return answer(apicore.Pasted(route, []byte(args[0].String())))
		}))
	}
	js.Global().Set("robotsChecker", checker)
	select {} // the functions answer for as long as the page lives
}

func answer(status int, body []byte) any {
	return map[string]any{"status": status, "body": string(body)}
}
