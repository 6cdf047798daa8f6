package fetch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/internal/sniff"
)

// TDMRepPath is where a site keeps its TDMRep file: "/.well-known/tdmrep.json"
// (TDM Reservation Protocol, #sec-tdm-file).
const TDMRepPath = "/.well-known/tdmrep.json"

// TDMRep is a site's /.well-known/tdmrep.json, the site-wide file of the
// W3C TDM Reservation Protocol (TDMRep, Final Community Group Report, 10
// May 2024, https://www.w3.org/community/reports/tdmrep/CG-FINAL-tdmrep-20240510/,
// #sec-tdm-file): an array of rules, each a location pattern with a
// tdm-reservation and an optional tdm-policy. Of the rules that match a
// path, the first in the file applies ("The most specific match is the
// first in sequence"), not the longest.
//
// tdm-reservation 1 reserves the text-and-data-mining rights of the
// matching resources, the opt-out of Article 4 of the EU Directive
// 2019/790; 0 lets agents mine them without contacting the rightsholder
// (#sec-tdm-reservation). The values of a resource's tdm-reservation
// header, and then of its HTML <meta name="tdm-reservation">, supersede
// the file's (#sec-processing-priority).
//
// A TDMRep is a value; its methods do not modify it, so it is safe for
// concurrent use once built. The zero value has no rules.
type TDMRep struct {
	// Rules are the usable rules of the file, in order.
	Rules []TDMRule
	// Problems are what is wrong with the file, in the order found: rules
	// skipped or read as unset, JSON that does not parse, a body cut at
	// the size limit.
	Problems []string
}

// A TDMRule is one rule of a tdmrep.json file.
type TDMRule struct {
	// Location is the pattern of the paths the rule covers, as written:
	// "*" matches any run of characters and a final "$" the end of the
	// path, as in robots.txt (#sec-tdm-file-regexp).
	Location string
	// Reservation is 1 when TDM rights are reserved, 0 when they are not,
	// and -1 when the rule's tdm-reservation is missing or not 0 or 1: a
	// protocol error, which agents "MUST consider ... unset"
	// (#sec-tdm-reservation).
	Reservation int
	// Policy is the rule's tdm-policy, a URL of the rightsholder's TDM
	// Policy, as written; "" when there is none.
	Policy string
}

// maxTDMProblems bounds the problems a TDMRep keeps.
const maxTDMProblems = 50

// ParseTDMRep reads a tdmrep.json body. It never fails: what it cannot use
// becomes a Problem. A rule with no location, or that is not an object, is
// skipped; a rule whose tdm-reservation is missing or not the integer 0
// or 1 is kept with Reservation -1, so that it still stops the search for
// the first match (it matches, and leaves the reservation unset). When the
// JSON breaks off, as a body cut at the size limit does, the rules before
// the break are kept.
func ParseTDMRep(body []byte) TDMRep {
	var t TDMRep
	if b, ok := bytes.CutPrefix(body, []byte("\xef\xbb\xbf")); ok {
		t.problem("the file starts with a byte order mark, which JSON does not allow (RFC 8259 §8.1); it is skipped")
		body = b
	}
	if len(bytes.TrimSpace(body)) == 0 {
		t.problem("the file is empty: it has no rules")
		return t
	}
	if sniff.HTML(body) {
		t.problem("the file is an HTML page, not JSON: it has no rules")
		return t
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		t.problem("the file is not JSON: " + jsonError(err))
		return t
	}
	if tok != json.Delim('[') {
		msg := "the file is not a JSON array of rules"
		if tok == json.Delim('{') {
			msg += ": the brackets are mandatory even for one rule (TDMRep #sec-tdm-file-example)"
		}
		t.problem(msg + "; it has no rules")
		return t
	}
	for n := 1; dec.More(); n++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.problem("rule " + strconv.Itoa(n) + " is not valid JSON (" + jsonError(err) + "); the rest of the file is not read")
			return t
		}
		t.rule(n, raw)
	}
	if _, err := dec.Token(); err != nil {
		t.problem("the array of rules is not closed (" + jsonError(err) + ")")
		return t
	}
	if _, err := dec.Token(); err != io.EOF {
		t.problem("data after the array of rules is ignored")
	}
	return t
}

func (t *TDMRep) problem(msg string) {
	switch {
	case len(t.Problems) < maxTDMProblems:
		t.Problems = append(t.Problems, msg)
	case len(t.Problems) == maxTDMProblems:
		t.Problems = append(t.Problems, "more problems are not listed")
	}
}

// jsonError says where JSON broke, in words.
func jsonError(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return err.Error() + " at byte " + strconv.FormatInt(se.Offset, 10)
	}
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return "it ends too early"
	}
	return err.Error()
}

// tdmProps are the properties of a rule (#sec-tdm-file).
var tdmProps = []string{"location", "tdm-reservation", "tdm-policy"}

// rule reads the n-th element of the array.
func (t *TDMRep) rule(n int, raw json.RawMessage) {
	at := "rule " + strconv.Itoa(n)
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		t.problem(at + " is not a JSON object; it is skipped")
		return
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if k == "location" || k == "tdm-reservation" || k == "tdm-policy" {
			continue
		}
		switch norm := strings.ReplaceAll(strings.ToLower(k), "_", "-"); {
		case norm == "tdm-a" || norm == "tdm-b":
			// The Community Group's earlier drafts named the properties
			// TDM-a and TDM-b.
			name := "tdm-reservation"
			if norm == "tdm-b" {
				name = "tdm-policy"
			}
			t.problem(at + ": " + strconv.Quote(k) + " is the name of an early TDMRep draft; the final report names it " + name + ", and agents ignore " + strconv.Quote(k))
		default:
			for _, p := range tdmProps {
				if norm == p {
					t.problem(at + ": " + strconv.Quote(k) + " is not " + p + ": property names are written in lower case with \"-\"; agents ignore it")
				}
			}
		}
	}
	r := TDMRule{Reservation: -1}
	loc, ok := obj["location"]
	if !ok || string(loc) == "null" || json.Unmarshal(loc, &r.Location) != nil {
		if ok {
			t.problem(at + ": location is not a string; the rule is skipped")
		} else {
			t.problem(at + " has no location, which is mandatory (TDMRep #sec-tdm-file); the rule is skipped")
		}
		return
	}
	if r.Location == "" || r.Location[0] != '/' && r.Location[0] != '*' {
		t.problem(at + ": location " + strconv.Quote(r.Location) + " does not start with \"/\"")
	}
	if v, ok := obj["tdm-reservation"]; !ok {
		t.problem(at + " has no tdm-reservation, which is mandatory (TDMRep #sec-tdm-file): it is unset for " + strconv.Quote(r.Location))
	} else {
		switch s := string(bytes.TrimSpace(v)); s {
		case "0", "1":
			r.Reservation = int(s[0] - '0')
		case `"0"`, `"1"`:
			t.problem(at + ": tdm-reservation is the integer " + s[1:2] + ", not the string " + s + "; as written it is a protocol error, and unset (TDMRep #sec-tdm-reservation)")
		default:
			t.problem(at + ": tdm-reservation is 0 or 1, not " + clip(s, 40) + "; other values are a protocol error, and unset (TDMRep #sec-tdm-reservation)")
		}
	}
	if v, ok := obj["tdm-policy"]; ok && string(v) != "null" {
		if json.Unmarshal(v, &r.Policy) != nil {
			t.problem(at + ": tdm-policy is not a string; it is ignored")
		}
	}
	t.Rules = append(t.Rules, r)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// For returns the rule that applies to path: the first rule whose
// location matches it (TDMRep #sec-tdm-file). path is the path and query
// of a URL as requested ("/a/b.html?x=1"), or an absolute URL whose path
// and query are used; "" is "/". With no match the reservation is unset:
// For returns a rule with Reservation -1 and false.
//
// Matching is by octets, case-sensitive, from the start of the path: a
// location matches when its end is reached before a difference, "*"
// matching any run of octets and a final "$" the end of the path
// (#sec-tdm-file-regexp, after draft-koster-rep-00 §2.2.3). Both sides
// are compared with percent-encoded unreserved characters decoded and
// other escapes in upper case (RFC 3986 §2.3, §6.2.2); so "%7E" matches
// "~", while "%2F" never matches "/", and a location "/foo-%24" matches a
// path "/foo-$", as the report's example says.
func (t *TDMRep) For(path string) (TDMRule, bool) {
	p := normPath(requestPath(path), true)
	for _, r := range t.Rules {
		if tdmMatch(r.Location, p) {
			return r, true
		}
	}
	return TDMRule{Reservation: -1}, false
}

// requestPath returns the path and query of an absolute URL, and path
// itself otherwise.
func requestPath(path string) string {
	if path == "" {
		return "/"
	}
	if path[0] != '/' {
		if u, err := url.Parse(path); err == nil && u.IsAbs() && u.Host != "" {
			return u.RequestURI()
		}
	}
	return path
}

// tdmMatch reports whether location matches the normalised path p.
func tdmMatch(location, p string) bool {
	anchored := strings.HasSuffix(location, "$")
	if anchored {
		location = location[:len(location)-1]
	}
	segs := strings.Split(location, "*")
	for i := range segs {
		segs[i] = normPath(segs[i], false)
	}
	// The first segment is a prefix; each later one is found leftmost
	// after the previous, which is where a match is easiest to continue.
	if !strings.HasPrefix(p, segs[0]) {
		return false
	}
	pos := len(segs[0])
	if len(segs) == 1 {
		return !anchored || pos == len(p)
	}
	for _, s := range segs[1 : len(segs)-1] {
		i := strings.Index(p[pos:], s)
		if i < 0 {
			return false
		}
		pos += i + len(s)
	}
	last := segs[len(segs)-1]
	if anchored {
		return len(p)-pos >= len(last) && strings.HasSuffix(p, last)
	}
	return strings.Contains(p[pos:], last)
}

// normPath normalises a path or a piece of a location for comparison:
// escapes of unreserved characters decoded, other escapes in upper case,
// bytes outside visible ASCII escaped. In a path (isPath), "*" and "$",
// which a location writes as %2A and %24 to match them as they are, are
// escaped too; in a location a "$" that is not at its end is literal.
func normPath(s string, isPath bool) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			d := unhexByte(s[i+1])<<4 | unhexByte(s[i+2])
			if isUnreserved(d) {
				b.WriteByte(d)
			} else {
				b.WriteByte('%')
				b.WriteByte(hex[d>>4])
				b.WriteByte(hex[d&15])
			}
			i += 2
		case c <= 0x20 || c >= 0x7f || c == '$' || isPath && c == '*':
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhexByte(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// isUnreserved reports an unreserved character of RFC 3986 §2.3.
func isUnreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// FetchTDMRep gets the /.well-known/tdmrep.json of origin (any http or
// https URL of the site; only its origin counts) through client, nil
// meaning http.DefaultClient, with the limits of a robots.txt fetch:
// DefaultTimeout for the whole fetch unless ctx ends sooner, at most five
// redirects (TDMRep allows "a sequence of redirects" to the file; five
// is what Google follows for robots.txt), and the first 500 KiB of the
// body (robots.MaxBytes), the rest cut with a Problem.
//
// A response that is not 2xx (a redirect past the fifth included) means
// the site has no file: "Failure to provide access to such a
// representation implies that the origin server does not implement this
// protocol" (#sec-tdm-file). FetchTDMRep then returns nil and no error.
// The error is for an origin that is not an http or https URL and for a
// failed request: no connection, a timeout (IsTimeout), a body that
// breaks off.
func FetchTDMRep(ctx context.Context, client *http.Client, origin string) (*TDMRep, error) {
	o, err := ParseOrigin(origin)
	if err != nil {
		return nil, err
	}
	if client == nil {
		client = http.DefaultClient
	}
	c := *client
	maxRedirects := Google.MaxRedirects()
	c.CheckRedirect = func(_ *http.Request, via []*http.Request) error {
		if len(via) > maxRedirects {
			return http.ErrUseLastResponse
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, DefaultTimeout)
	defer cancel()
	target := o.String() + TDMRepPath
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", DefaultUserAgent)
	req.Header.Set("Accept", "application/json, */*;q=0.5")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		discard(resp.Body)
		return nil, nil
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, robots.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", target, err)
	}
	cut := len(data) > robots.MaxBytes
	if cut {
		data = data[:robots.MaxBytes]
	}
	t := ParseTDMRep(data)
	if cut {
		t.Problems = append([]string{"tdmrep.json is larger than 500 KiB: what follows is not read"}, t.Problems...)
	}
	return &t, nil
}
