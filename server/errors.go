package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/robotskit/robots/internal/spell"
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
		if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			if name, err := strconv.Unquote(f); err == nil {
				return badRequest("bad_json", unknownField(name, v))
			}
		}
		return badRequest("bad_json", "the request body is not valid JSON for this route: "+err.Error())
	}
	if dec.More() {
		return badRequest("bad_json", "the request body holds more than one JSON value")
	}
	return nil
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

// fieldAliases are the names users give the fields of the requests, by
// the field they meant: a name for what the field holds, where spelling
// alone would lead astray ("robot" is one letter from "robots", the
// file, but means a robot's name).
var fieldAliases = map[string]string{
	"robot": "robots_list", "robot_list": "robots_list", "robot_names": "robots_list", "robots_names": "robots_list",
	"names": "robots_list", "bots": "robots_list", "crawlers": "robots_list", "crawler": "robots_list",
	"agent": "agents", "user_agent": "agents", "user_agents": "agents", "useragent": "agents", "ua": "agents", "tokens": "agents",
	"url_list": "urls", "paths": "urls", "path": "urls",
	"file": "robots", "robots_txt": "robots", "robotstxt": "robots", "content": "robots", "text": "robots", "body": "robots",
	"site": "url", "host": "url", "domain": "url",
	"fix": "enable", "fixes": "enable", "intent": "enable",
	"family": "profile",
}

// unknownField is the message for a field name a request of v's type
// does not have: the field most likely meant, if any, and the fields the
// route takes.
func unknownField(name string, v any) string {
	var fields []string
	if t := reflect.TypeOf(v); t != nil && t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
		for f := range t.Elem().Fields() {
			if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag != "" && tag != "-" {
				fields = append(fields, tag)
			}
		}
	}
	msg := fmt.Sprintf("the request has a field %q, which this route does not take", name)
	if m := meantField(name, fields); m != "" {
		msg += fmt.Sprintf(": did you mean %q?", m)
	} else {
		msg += "."
	}
	return msg + " It takes " + strings.Join(quoteAll(fields), ", ") + "."
}

// meantField is the field of fields a mistyped name most likely means:
// the same name in snake case ("robotsList", "Robots-List"), the field
// of an alias, or a field a letter or two away.
func meantField(name string, fields []string) string {
	var b strings.Builder
	for i, r := range name {
		switch {
		case r == '-' || r == ' ':
			r = '_'
		case unicode.IsUpper(r) && i > 0 && !strings.HasSuffix(b.String(), "_"):
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	n := b.String()
	if slices.Contains(fields, n) {
		return n
	}
	if a, ok := fieldAliases[n]; ok && slices.Contains(fields, a) {
		return a
	}
	if _, ok := fieldAliases[n]; ok {
		return "" // a name for a field this route does not have
	}
	best, bestD := "", 3
	for _, f := range fields {
		if d := spell.Distance(n, f, 0); d < bestD {
			best, bestD = f, d
		}
	}
	return best
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}
