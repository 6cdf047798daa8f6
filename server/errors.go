package server

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/robotskit/robots/internal/wire"
)

// An apiError is an error with the HTTP status and code it is answered
// with.
type apiError struct {
	status int
	code   string
	msg    string
}

func (e *apiError) Error() string { return e.msg }

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
	var ae *apiError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &ae):
	case errors.As(err, &mbe):
		ae = &apiError{status: http.StatusRequestEntityTooLarge, code: "body_too_large", msg: "the request body is larger than 1 MiB"}
	default:
		ae = &apiError{status: http.StatusInternalServerError, code: "internal", msg: "internal error"}
	}
	if ae.status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "1")
	}
	writeJSON(w, ae.status, wire.ErrorResponse{Error: wire.ErrorBody{Code: ae.code, Message: ae.msg}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

// decode reads a JSON request body into v, strictly.
func decode(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !isJSON(ct) {
		return &apiError{status: http.StatusUnsupportedMediaType, code: "bad_content_type", msg: "send the request as application/json"}
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		return badRequest("bad_json", "the request body is not valid JSON for this route: "+err.Error())
	}
	if dec.More() {
		return badRequest("bad_json", "the request body holds more than one JSON value")
	}
	return nil
}

func isJSON(ct string) bool {
	for i := 0; i < len(ct); i++ {
		if ct[i] == ';' {
			ct = ct[:i]
			break
		}
	}
	return ct == "application/json" || ct == "text/json"
}
