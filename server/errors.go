package server

import (
	"context"
	"errors"
	"mime"
	"net/http"
	"strconv"

	"github.com/robotskit/robots/internal/apicore"
	"github.com/robotskit/robots/internal/wire"
)

// An apiError is an error with the HTTP status and code it is answered
// with.
type apiError struct {
	status int
	code   string
	msg    string
	// why is the reason the metrics and the log give, when it says more
	// than code ("queue_timeout" for an "overloaded"); retry is the
	// Retry-After in seconds, 0 for none.
	why   string
	retry int
}

func (e *apiError) Error() string { return e.msg }

// reason is what the metrics and the log call the error.
func (e *apiError) reason() string {
	if e.why != "" {
		return e.why
	}
	return e.code
}

func badRequest(code, msg string) *apiError {
	return &apiError{status: http.StatusBadRequest, code: code, msg: msg}
}

// handler is an API handler: it writes a response, or returns the error
// that writeError turns into one.
type handler func(w http.ResponseWriter, r *http.Request) error

// writeError is the one place that maps errors to statuses: an apiError
// keeps its own; a body over the limit is 413; anything else is a 500
// whose message does not leak internals.
func writeError(w http.ResponseWriter, err error) {
	ae := asAPIError(err)
	noteError(w, ae)
	writeJSON(context.Background(), w, ae.status, wire.ErrorResponse{Error: wire.ErrorBody{Code: ae.code, Message: ae.msg}})
}

// asAPIError is err as an *apiError: itself; 413 for a body over the
// limit; a 500 for anything else, whose message does not leak internals.
func asAPIError(err error) *apiError {
	var ae *apiError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.As(err, &mbe):
		return &apiError{status: http.StatusRequestEntityTooLarge, code: "body_too_large", msg: "the request body is larger than 1 MiB"}
	}
	return &apiError{status: http.StatusInternalServerError, code: "internal", msg: "internal error"}
}

// noteError tells the log and the metrics (instrument) why the request
// failed, and sets the Retry-After the error asks for.
func noteError(w http.ResponseWriter, ae *apiError) {
	if sw, ok := w.(*statusWriter); ok {
		sw.code = ae.reason()
	}
	switch {
	case ae.retry > 0:
		w.Header().Set("Retry-After", strconv.Itoa(ae.retry))
	case ae.status == http.StatusTooManyRequests:
		w.Header().Set("Retry-After", "1")
	}
}

// decode reads a JSON request body into v, strictly, as apicore.Decode
// reads it.
func decode(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !isJSON(ct) {
		return &apiError{status: http.StatusUnsupportedMediaType, code: "bad_content_type", msg: "send the request as application/json"}
	}
	err := apicore.Decode(r.Body, v)
	var mbe *http.MaxBytesError
	var ce *apicore.Error
	switch {
	case err == nil, errors.As(err, &mbe):
		return err
	case errors.As(err, &ce):
		return fromCore(err)
	}
	return badRequest("bad_json", "the request body is not valid JSON for this route: "+err.Error())
}

// fromCore is an error of package apicore as the server answers it: an
// *apicore.Error is the apiError of its status and code; any other error
// is itself.
func fromCore(err error) error {
	var ce *apicore.Error
	if errors.As(err, &ce) {
		return &apiError{status: ce.Status, code: ce.Code, msg: ce.Message}
	}
	return err
}

// isJSON reports whether a request's Content-Type is application/json or
// text/json, with any parameters. Type and subtype are compared without
// regard to case (RFC 9110 §8.3.1), so Application/JSON is JSON too.
func isJSON(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil && !errors.Is(err, mime.ErrInvalidMediaParameter) {
		return false
	}
	// A parameter that does not parse leaves the type itself readable,
	// as the server read it before.
	return mt == "application/json" || mt == "text/json"
}
