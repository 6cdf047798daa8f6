package meta

import (
	"net/http"
	"strings"
)

// Bounds on what is read from headers.
const (
	// MaxHeaderValue is how many bytes of one header field value are read;
	// draft-illyes-repext-00 §2.1.1 asks for a limit of at least 8 KiB.
	MaxHeaderValue = 16 << 10
	// MaxHeaderFields is how many X-Robots-Tag or Robots-Tag fields are
	// read.
	MaxHeaderFields = 64
)

// FromHeader reads the X-Robots-Tag and Robots-Tag fields of a response
// header, in that order.
func FromHeader(h http.Header) []Directive {
	ds := ParseXRobotsTag(h.Values("X-Robots-Tag")...)
	return append(ds, ParseRobotsTag(h.Values("Robots-Tag")...)...)
}

// ParseXRobotsTag reads the values of X-Robots-Tag header fields. Each is a
// comma-separated list of directives; a "robot:" prefix addresses the
// directives after it, up to the end of the field or the next prefix, to
// that robot (Google Search Central, "X-Robots-Tag"):
//
//	X-Robots-Tag: noindex, nofollow
//	X-Robots-Tag: googlebot: nofollow
//	X-Robots-Tag: unavailable_after: 25 Jun 2035 15:00:00 PST
func ParseXRobotsTag(values ...string) []Directive {
	var out []Directive
	for i, v := range capFields(values) {
		v, cut := capValue(v)
		ds := parseList(v, "", XRobotsTag, i+1, 0, true)
		if cut && len(ds) > 0 {
			noteCut(&ds[len(ds)-1])
		}
		out = append(out, ds...)
	}
	return out
}

// ParseRobotsTag reads the values of Robots-Tag header fields
// (draft-illyes-repext-00 §2.1.1): ";"-separated entries, each "token=" or
// "*=" or nothing, then a comma-separated list of rules.
//
//	Robots-Tag: *=noindex, nosnippet; ExampleBot=;
func ParseRobotsTag(values ...string) []Directive {
	var out []Directive
	for i, v := range capFields(values) {
		v, cut := capValue(v)
		n := len(out)
		for entry := range strings.SplitSeq(v, ";") {
			robot, rules := "", entry
			if tok, rest, ok := strings.Cut(entry, "="); ok && !strings.Contains(tok, ",") && !strings.Contains(tok, ":") {
				tok = strings.ToLower(strings.TrimSpace(tok))
				if tok != "*" && tok != "" {
					robot = tok
				}
				rules = rest
				if robot != "" && strings.TrimSpace(rules) == "" {
					// "ExampleBot=": the robot is named with no rules;
					// keep the naming so that For gives it none of the
					// global entry's rules.
					out = append(out, Directive{Name: "", Robot: robot, Source: RobotsTag, Field: i + 1,
						Text: strings.TrimSpace(entry), kind: kDefault})
					continue
				}
			}
			out = append(out, parseList(rules, robot, RobotsTag, i+1, 0, false)...)
		}
		if cut && len(out) > n {
			noteCut(&out[len(out)-1])
		}
	}
	return out
}

func capFields(values []string) []string {
	if len(values) > MaxHeaderFields {
		return values[:MaxHeaderFields]
	}
	return values
}

func capValue(v string) (string, bool) {
	if len(v) > MaxHeaderValue {
		return v[:MaxHeaderValue], true
	}
	return v, false
}

func noteCut(d *Directive) {
	msg := "header value cut after 16 KiB; the rest is not read"
	if d.Problem != "" {
		msg = d.Problem + "; " + msg
	}
	d.Problem = msg
}
