package apicore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/robotskit/robots/internal/spell"
	"github.com/robotskit/robots/internal/wire"
)

// The HTTP statuses of the answers this package refuses (named here so
// that the package needs no net/http).
const (
	StatusBadRequest            = 400
	StatusRequestEntityTooLarge = 413
	StatusUnprocessableEntity   = 422
	StatusInternalServerError   = 500
)

// An Error is a request the API refuses: the HTTP status and the code of
// its answer, and the message for people.
type Error struct {
	Status  int
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

// Response is the body of the answer to e.
func (e *Error) Response() wire.ErrorResponse {
	return wire.ErrorResponse{Error: wire.ErrorBody{Code: e.Code, Message: e.Message}}
}

func badRequest(code, msg string) *Error {
	return &Error{Status: StatusBadRequest, Code: code, Message: msg}
}

// An errorReader keeps the error of the reader a request is decoded from,
// so that Decode tells it from an error of the JSON.
type errorReader struct {
	r   io.Reader
	err error
}

func (e *errorReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		e.err = err
	}
	return n, err
}

// Decode reads a JSON request from r into v, strictly: an unknown field
// is refused, with the field most likely meant, and so is a second JSON
// value. An error of r itself is returned as it is; any other is an
// *Error (400 bad_json).
func Decode(r io.Reader, v any) error {
	er := &errorReader{r: r}
	dec := json.NewDecoder(er)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if er.err != nil && errors.Is(err, er.err) {
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
