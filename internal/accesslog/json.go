package accesslog

import (
	"bytes"
	"encoding/json"
	"math"
	"net/netip"
	"time"
	"unicode/utf8"
)

// jsonLine holds the keys of a JSON line that name what an Entry needs,
// raw, in order of preference within each group. Its buffers are reused
// from line to line.
type jsonLine struct {
	// when
	Time        json.RawMessage `json:"time"`
	Timestamp   json.RawMessage `json:"timestamp"`
	TS          json.RawMessage `json:"ts"` // Caddy
	TimeLocal   json.RawMessage `json:"time_local"`
	TimeISO8601 json.RawMessage `json:"time_iso8601"`
	AtTimestamp json.RawMessage `json:"@timestamp"` // Logstash, Elastic Common Schema
	// host
	Host       json.RawMessage `json:"host"`
	HTTPHost   json.RawMessage `json:"http_host"`
	ServerName json.RawMessage `json:"server_name"`
	// target
	Path       json.RawMessage `json:"path"`
	RequestURI json.RawMessage `json:"request_uri"`
	URI        json.RawMessage `json:"uri"`
	URL        json.RawMessage `json:"url"`
	// "GET /x HTTP/1.1" (nginx's $request) or Caddy's request object
	Request json.RawMessage `json:"request"`
	Status  json.RawMessage `json:"status"`
	// User-Agent
	UserAgent     json.RawMessage `json:"user_agent"`
	HTTPUserAgent json.RawMessage `json:"http_user_agent"`
	UA            json.RawMessage `json:"ua"`
	UserAgentCC   json.RawMessage `json:"userAgent"`
	// client
	RemoteAddr json.RawMessage `json:"remote_addr"`
	ClientIP   json.RawMessage `json:"client_ip"`
	IP         json.RawMessage `json:"ip"`
	RemoteIP   json.RawMessage `json:"remote_ip"`
	// method
	Method        json.RawMessage `json:"method"`
	RequestMethod json.RawMessage `json:"request_method"`
}

// reset empties every field of j, keeping its buffers.
func (j *jsonLine) reset() {
	for _, f := range [...]*json.RawMessage{
		&j.Time, &j.Timestamp, &j.TS, &j.TimeLocal, &j.TimeISO8601, &j.AtTimestamp,
		&j.Host, &j.HTTPHost, &j.ServerName,
		&j.Path, &j.RequestURI, &j.URI, &j.URL, &j.Request, &j.Status,
		&j.UserAgent, &j.HTTPUserAgent, &j.UA, &j.UserAgentCC,
		&j.RemoteAddr, &j.ClientIP, &j.IP, &j.RemoteIP,
		&j.Method, &j.RequestMethod,
	} {
		*f = (*f)[:0]
	}
}

// caddyRequest is the "request" object of Caddy's access log.
type caddyRequest struct {
	Host     string `json:"host"`
	URI      string `json:"uri"`
	Method   string `json:"method"`
	ClientIP string `json:"client_ip"`
	RemoteIP string `json:"remote_ip"`
	Headers  struct {
		UserAgent []string `json:"User-Agent"`
	} `json:"headers"`
}

// first returns the first of raws that is present and not null.
func first(raws ...json.RawMessage) json.RawMessage {
	for _, r := range raws {
		if len(r) > 0 && string(r) != "null" {
			return r
		}
	}
	return nil
}

// str reads a JSON string as encoding/json does, nil when raw is absent
// or not a string. The result may be raw's own bytes.
func str(raw json.RawMessage) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return nil, false
	}
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return raw[1 : len(raw)-1], true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return nil, false
	}
	return []byte(s), true
}

// firstStr returns the first of raws that is a string.
func firstStr(raws ...json.RawMessage) []byte {
	for _, r := range raws {
		if s, ok := str(r); ok {
			return s
		}
	}
	return nil
}

// parseJSON reads a JSON line into e, or sets r.reason and returns false.
func (r *Reader) parseJSON(line []byte, e *Entry) bool {
	j := &r.js
	j.reset()
	if err := json.Unmarshal(line, j); err != nil {
		return r.no("JSON: " + err.Error())
	}

	var method, target, host, remote, ua []byte
	var caddy *caddyRequest
	if req := first(j.Request); len(req) > 0 {
		switch req[0] {
		case '"':
			line, _ := str(req)
			m, t, ok := splitRequest(line)
			switch {
			case ok:
				method = m
				if len(firstStr(j.Path, j.RequestURI)) == 0 {
					target = t
				}
			case len(firstStr(j.Path, j.RequestURI, j.URI, j.URL)) == 0:
				if len(line) == 0 || string(line) == "-" {
					return r.no("no request")
				}
				return r.no("malformed request")
			}
		case '{':
			caddy = &r.jsReq
			*caddy = caddyRequest{}
			if err := json.Unmarshal(req, caddy); err != nil {
				return r.no("JSON request: " + err.Error())
			}
		}
	}
	if target == nil {
		target = firstStr(j.Path, j.RequestURI, j.URI, j.URL)
	}
	if method == nil {
		method = firstStr(j.Method, j.RequestMethod)
	}
	host = firstStr(j.Host, j.HTTPHost, j.ServerName)
	ua = firstStr(j.UserAgent, j.HTTPUserAgent, j.UA, j.UserAgentCC)
	remote = firstStr(j.RemoteAddr, j.ClientIP, j.IP, j.RemoteIP)
	if caddy != nil {
		if len(target) == 0 {
			target = []byte(caddy.URI)
		}
		if len(method) == 0 {
			method = []byte(caddy.Method)
		}
		if len(host) == 0 {
			host = []byte(caddy.Host)
		}
		if len(ua) == 0 && len(caddy.Headers.UserAgent) > 0 {
			ua = []byte(caddy.Headers.UserAgent[0])
		}
		if len(remote) == 0 {
			if remote = []byte(caddy.ClientIP); len(remote) == 0 {
				remote = []byte(caddy.RemoteIP)
			}
		}
	}
	if len(target) == 0 {
		return r.no("no path")
	}

	tr := first(j.Time, j.Timestamp, j.TS, j.TimeLocal, j.TimeISO8601, j.AtTimestamp)
	if tr == nil {
		return r.no("no time")
	}
	t, ok := r.jsonTime(tr)
	if !ok {
		return r.no("bad time " + string(tr))
	}
	status := 0
	if sr := first(j.Status); sr != nil {
		if s, ok := str(sr); ok {
			sr = s
		}
		if status, ok = parseStatus(sr); !ok {
			return r.no("bad status " + string(first(j.Status)))
		}
	}

	e.Time = t
	e.Method = internMethod(method)
	e.Target = string(target)
	if len(host) > 0 {
		e.Host = r.host(host)
	} else {
		e.Host = targetHost(e.Target)
	}
	e.Status = status
	e.UserAgent = r.userAgent(ua)
	if len(remote) > 0 {
		e.Remote = r.addr(remote)
	} else {
		e.Remote = netip.Addr{}
	}
	return true
}

// jsonTime reads a JSON line's time: an RFC 3339 string, a CLF time, or
// a Unix time in seconds (possibly fractional) or, when larger, in
// milliseconds, microseconds or nanoseconds, as a number or a string.
func (r *Reader) jsonTime(raw json.RawMessage) (time.Time, bool) {
	b := []byte(raw)
	if raw[0] == '"' {
		var ok bool
		if b, ok = str(raw); !ok {
			return time.Time{}, false
		}
	}
	if len(b) == 0 {
		return time.Time{}, false
	}
	if c := b[0]; '0' <= c && c <= '9' {
		if t, ok := parseUnix(b); ok {
			return t, true
		}
	}
	if len(b) == 26 && b[2] == '/' {
		return r.clfTime(b)
	}
	if raw[0] != '"' {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, string(b))
	return t, err == nil
}

// parseUnix reads a Unix time, digits with an optional fraction: seconds,
// or milliseconds above 1e12, microseconds above 1e15, nanoseconds above
// 1e18.
func parseUnix(b []byte) (time.Time, bool) {
	var n int64
	i := 0
	for ; i < len(b) && '0' <= b[i] && b[i] <= '9'; i++ {
		if n > (math.MaxInt64-9)/10 {
			return time.Time{}, false
		}
		n = n*10 + int64(b[i]-'0')
	}
	if i == 0 {
		return time.Time{}, false
	}
	var frac int64 // nanoseconds of the unit, from at most 9 digits
	if i < len(b) && b[i] == '.' {
		i++
		start := i
		scale := int64(1e8)
		for ; i < len(b) && '0' <= b[i] && b[i] <= '9'; i++ {
			frac += int64(b[i]-'0') * scale
			scale /= 10
		}
		if i == start {
			return time.Time{}, false
		}
	}
	if i != len(b) {
		return time.Time{}, false
	}
	var t time.Time
	switch {
	case n > 1e18:
		t = time.Unix(0, n)
	case n > 1e15:
		t = time.Unix(n/1e6, n%1e6*1e3+frac/1e6)
	case n > 1e12:
		t = time.Unix(n/1e3, n%1e3*1e6+frac/1e3)
	default:
		t = time.Unix(n, frac)
	}
	return t.UTC(), true
}
