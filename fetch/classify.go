package fetch

import (
	"net/http"

	"github.com/robotskit/robots"
)

// classifyBase is the URL a recorded Location is resolved against to tell
// whether a robot could follow it. Any http or https URL with a host gives
// the same answer: a relative reference takes the scheme and host of the
// base, and an absolute one is usable only when it is http or https with
// a host of its own. The name is reserved (RFC 2606 §2: .invalid).
const classifyBase = "http://robots.invalid/robots.txt"

// Classify returns the outcome under the policy of a recorded response for
// robots.txt, such as one in a WARC file: the final status, the response's
// headers (nil when unknown), its body (what was kept of it) and size (the
// length of the whole body, which may exceed len(body)). It reads the
// response as a fetch under the policy reads its last hop, with the same
// code: the status rules of the table in the package documentation, a 5xx
// page that says the file is not found (Google's and Mandelbot's reading,
// looked for in the first 16 KiB of the body as a fetch reads it), and a
// body over 500 KiB, which Yandex ignores whole (Yandex's robots.txt help,
// https://yandex.com/support/webmaster/controlling-robot/robots-txt.html)
// while the others cut it.
//
// A status of 0 means no response arrived: the policy's reading of a
// network error (RFC 9309 §2.3.1.4).
//
// A redirect (301, 302, 303, 307 or 308) is one hop of a chain whose next
// hop, if any, is another record: a robot that meets it and cannot follow
// it ends as a fetch that stops following, "no file" (Unavailable), the
// table's "5, then no file" (Google treats a robots.txt it cannot reach
// through redirects as a 404, and RFC 9309 §2.3.1.2 lets a crawler "assume
// that the robots.txt file is unavailable"). A redirect without a usable
// Location (none, or one that does not resolve to an http or https URL)
// is an invalid response, as in a fetch: the policy's reading of a network
// error (Google counts it among the "other errors" treated as server
// errors, https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt).
// A caller that has the redirect's target should classify the target's
// response instead.
func (p Policy) Classify(status int, header http.Header, body []byte, size int64) Outcome {
	s := p.sem()
	r := Result{Status: status}
	switch {
	case status == 0:
		r.end = endNetwork
	case isRedirect(status):
		if _, ok := resolve(classifyBase, header.Get("Location")); ok {
			r.end = endOverflow
		} else {
			r.end = endNetwork
		}
	case status >= 200 && status < 300:
		r.Truncated = size > robots.MaxBytes || len(body) > robots.MaxBytes
	default:
		// A fetch reads at most errorBodyMax bytes of an error page.
		r.notFound = status >= 500 && saysNotFound(body[:min(len(body), errorBodyMax)])
	}
	out, _ := s.outcome(&r, s.redirects)
	return out
}
