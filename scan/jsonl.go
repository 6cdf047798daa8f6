package scan

import (
	"errors"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// appendRow appends r as one JSON object, the bytes encoding/json's
// Marshal gives for it (the field order and names of Row's json tags,
// omitempty and omitzero, strings escaped as Marshal escapes them), and
// no newline. It is the JSONL writer's encoder: a row with 93 verdicts
// is about 7 KB of JSON, and reflection would cost more than the row's
// analysis. TestAppendRow holds it to Marshal's bytes.
func appendRow(b []byte, r *Row) ([]byte, error) {
	return (*rowEncoderCache)(nil).appendRow(b, r)
}

// A rowEncoderCache keeps the JSON of the verdict lists it encoded, by
// list: the rows of an Analyzer share their lists (every capture of one
// body, and most files give the robots one of a few lists), so the
// largest part of a row is encoded once per list. Its lists are kept
// alive with their JSON, so that a list's address names it alone. A nil
// cache encodes every list. A cache is used by one goroutine at a time.
type rowEncoderCache struct {
	json map[*Verdict]cachedVerdicts
}

type cachedVerdicts struct {
	list []Verdict
	json []byte
}

// maxCachedLists bounds a rowEncoderCache.
const maxCachedLists = 4096

// appendRow is appendRow with the cache's verdict lists.
func (enc *rowEncoderCache) appendRow(b []byte, r *Row) ([]byte, error) {
	b = append(b, `{"url":`...)
	b = appendJSONString(b, r.URL)
	b = append(b, `,"host":`...)
	b = appendJSONString(b, r.Host)
	b = append(b, `,"domain":`...)
	b = appendJSONString(b, r.Domain)
	if !r.Time.IsZero() {
		// time.Time.MarshalJSON: RFC 3339 with nanoseconds, and an error
		// for a year it cannot write.
		if y := r.Time.Year(); y < 0 || y > 9999 {
			return b, errors.New("json: error calling MarshalJSON for type time.Time: Time.MarshalJSON: year outside of range [0,9999]")
		}
		b = append(b, `,"time":"`...)
		b = r.Time.AppendFormat(b, time.RFC3339Nano)
		b = append(b, '"')
	}
	if r.Source != "" {
		b = append(b, `,"source":`...)
		b = appendJSONString(b, r.Source)
	}
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, r.Offset, 10)
	b = append(b, `,"status":`...)
	b = strconv.AppendInt(b, int64(r.Status), 10)
	if r.RedirectTo != "" {
		b = append(b, `,"redirect_to":`...)
		b = appendJSONString(b, r.RedirectTo)
	}
	if r.ContentType != "" {
		b = append(b, `,"content_type":`...)
		b = appendJSONString(b, r.ContentType)
	}
	b = append(b, `,"html":`...)
	b = strconv.AppendBool(b, r.HTML)
	b = append(b, `,"bytes":`...)
	b = strconv.AppendInt(b, r.Bytes, 10)
	b = append(b, `,"over_limit":`...)
	b = strconv.AppendBool(b, r.OverLimit)
	if r.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	if r.Revisit {
		b = append(b, `,"revisit":true`...)
	}
	if r.Encoding != "" {
		b = append(b, `,"encoding":`...)
		b = appendJSONString(b, r.Encoding)
	}
	if r.BOM {
		b = append(b, `,"bom":true`...)
	}

	b = append(b, `,"outcomes":`...)
	if r.Outcomes == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range r.Outcomes {
			o := &r.Outcomes[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"policy":`...)
			b = appendJSONString(b, o.Policy)
			b = append(b, `,"outcome":`...)
			b = appendJSONString(b, o.Outcome)
			b = append(b, '}')
		}
		b = append(b, ']')
	}

	b = append(b, `,"directives":`...)
	if r.Directives == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range r.Directives {
			d := &r.Directives[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"key":`...)
			b = appendJSONString(b, d.Key)
			b = append(b, `,"count":`...)
			b = strconv.AppendInt(b, int64(d.Count), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"groups":`...)
	b = strconv.AppendInt(b, int64(r.Groups), 10)
	b = append(b, `,"rules":`...)
	b = strconv.AppendInt(b, int64(r.Rules), 10)
	b = append(b, `,"sitemaps":`...)
	b = strconv.AppendInt(b, int64(r.Sitemaps), 10)

	b = append(b, `,"agents":`...)
	if r.Agents == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range r.Agents {
			a := &r.Agents[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"value":`...)
			b = appendJSONString(b, a.Value)
			b = append(b, `,"lower":`...)
			b = appendJSONString(b, a.Lower)
			b = append(b, `,"token":`...)
			b = appendJSONString(b, a.Token)
			b = append(b, `,"line":`...)
			b = strconv.AppendInt(b, int64(a.Line), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}

	b = appendStringList(b, `,"content_signal":[`, r.ContentSignal)
	b = appendStringList(b, `,"content_usage":[`, r.ContentUsage)
	b = appendStringList(b, `,"license":[`, r.License)

	b = append(b, `,"robots":`...)
	var err error
	if b, err = enc.appendVerdicts(b, r.Robots); err != nil {
		return b, err
	}

	b = appendStringList(b, `,"lint":[`, r.Lint)
	if r.LintTimeout {
		b = append(b, `,"lint_timeout":true`...)
	}
	return append(b, '}'), nil
}

// appendStringList appends a list of strings that omitempty leaves out
// when it is empty: key, the field's name and its opening bracket, then
// the strings and the closing bracket.
func appendStringList(b []byte, key string, list []string) []byte {
	if len(list) == 0 {
		return b
	}
	b = append(b, key...)
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

// appendVerdicts appends a row's verdicts as a JSON array, "null" for
// nil, from the cache when it has them.
func (enc *rowEncoderCache) appendVerdicts(b []byte, vs []Verdict) ([]byte, error) {
	if enc == nil || len(vs) == 0 {
		return appendVerdictList(b, vs)
	}
	if c, ok := enc.json[&vs[0]]; ok && len(c.list) == len(vs) {
		return append(b, c.json...), nil
	}
	js, err := appendVerdictList(nil, vs)
	if err != nil {
		return b, err
	}
	if enc.json == nil || len(enc.json) >= maxCachedLists {
		enc.json = make(map[*Verdict]cachedVerdicts)
	}
	enc.json[&vs[0]] = cachedVerdicts{list: vs, json: js}
	return append(b, js...), nil
}

// appendVerdictList appends vs as a JSON array, "null" for nil.
func appendVerdictList(b []byte, vs []Verdict) ([]byte, error) {
	if vs == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range vs {
			v := &vs[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"robot":`...)
			b = appendJSONString(b, v.Robot)
			b = append(b, `,"state":`...)
			b = appendJSONString(b, v.State)
			b = append(b, `,"via":`...)
			b = appendJSONString(b, v.Via)
			b = append(b, `,"line":`...)
			b = strconv.AppendInt(b, int64(v.Line), 10)
			b = append(b, `,"group":`...)
			b = strconv.AppendInt(b, int64(v.Group), 10)
			if v.CrawlDelay != 0 {
				b = append(b, `,"crawl_delay":`...)
				var err error
				if b, err = appendJSONFloat(b, v.CrawlDelay); err != nil {
					return b, err
				}
			}
			b = append(b, `,"ai_train":`...)
			b = appendJSONString(b, v.AITrain)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return b, nil
}

// appendJSONFloat appends f as encoding/json writes a float64: the
// shortest form that reads back the same, in exponent form below 1e-6
// and from 1e21 on (ECMAScript's Number.prototype.toString), with the
// exponent's leading zero dropped; NaN and the infinities are an error.
func appendJSONFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, errors.New("json: unsupported value: " + strconv.FormatFloat(f, 'g', -1, 64))
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	n := len(b)
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// "1e-07" → "1e-7"
		if m := len(b) - n; m >= 4 && b[len(b)-4] == 'e' && b[len(b)-3] == '-' && b[len(b)-2] == '0' {
			b[len(b)-2] = b[len(b)-1]
			b = b[:len(b)-1]
		}
	}
	return b, nil
}

const hexDigits = "0123456789abcdef"

// jsonSafe marks the ASCII bytes that encoding/json writes as they are
// in a string with HTML escaping on (Marshal's default): not a control
// character, '"', '\\', '<', '>' or '&'.
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendJSONString appends s as a JSON string as encoding/json's Marshal
// writes it (RFC 8259 §7): '"' and '\\' escaped, \b \f \n \r \t by
// name, other control characters and '<', '>', '&' as \u00XX, U+2028
// and U+2029 as \u2028 and \u2029, and each byte that is not valid UTF-8
// as \ufffd.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
