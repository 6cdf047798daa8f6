package apicore

import (
	"bytes"
	"context"
	"errors"

	"github.com/robotskit/robots/internal/wire"
)

// The routes Pasted answers.
const (
	RouteCheck = "check" // POST /api/v1/check
	RouteTest  = "test"  // POST /api/v1/test
)

// Pasted answers body, the JSON request of POST /api/v1/<route> for a
// pasted file ("robots", not "url"), as the server answers it: the HTTP
// status, and the JSON of the answer or of its error, octet for octet.
// It is what the page's WebAssembly checker runs, under the server's
// limits (DefaultLimits) but without its deadline. A request that names
// a site is refused (400 needs_server): the page sends those to the
// server.
func Pasted(route string, body []byte) (int, []byte) {
	ctx := context.Background()
	var b bytes.Buffer
	v, err := pasted(ctx, route, body)
	if err == nil {
		if err = Encode(ctx, &b, v); err == nil {
			return 200, b.Bytes()
		}
	}
	var e *Error
	if !errors.As(err, &e) {
		// As the server answers an error of its own: no internals.
		e = &Error{Status: StatusInternalServerError, Code: "internal", Message: "internal error"}
	}
	b.Reset()
	Encode(ctx, &b, e.Response())
	return e.Status, b.Bytes()
}

func pasted(ctx context.Context, route string, body []byte) (any, error) {
	if len(body) > MaxBody {
		return nil, &Error{Status: StatusRequestEntityTooLarge, Code: "body_too_large", Message: "the request body is larger than 1 MiB"}
	}
	switch route {
	case RouteCheck:
		var req wire.CheckRequest
		if err := Decode(bytes.NewReader(body), &req); err != nil {
			return nil, err
		}
		c, err := NewCheck(req)
		if err != nil {
			return nil, err
		}
		if req.URL != "" {
			return nil, needsServer()
		}
		resp, err := c.Run(ctx, nil, DefaultLimits)
		if err != nil {
			return nil, err
		}
		return resp, FitCheck(ctx, resp, DefaultLimits.MaxAnswer)
	case RouteTest:
		var req wire.TestRequest
		if err := Decode(bytes.NewReader(body), &req); err != nil {
			return nil, err
		}
		t, err := NewTest(req)
		if err != nil {
			return nil, err
		}
		if req.URL != "" {
			return nil, needsServer()
		}
		return t.Run(ctx, nil, DefaultLimits)
	}
	return nil, &Error{Status: 404, Code: "not_found", Message: "POST /api/v1/" + route + " is not a route of this checker"}
}

func needsServer() *Error {
	return badRequest("needs_server", `this checker reads a pasted file ("robots"); the server fetches a site ("url")`)
}
