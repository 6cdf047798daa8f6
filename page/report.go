package page

import (
	"github.com/robotskit/robots/usage"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/meta"
)

// A Report is a page as one robot sees it. Its JSON form is the output of
// `robots page -format json` and of the API's /api/v1/page (README, "The
// web checker and JSON API").
type Report struct {
	// URL is the page asked for; FinalURL where its redirects led.
	URL      string `json:"url"`
	FinalURL string `json:"final_url"`
	// Robot is the robot's name, UserAgent the header sent.
	Robot     string `json:"robot"`
	UserAgent string `json:"user_agent"`
	// Status is the final HTTP status, 0 when no response arrived; Error
	// says why.
	Status int    `json:"status"`
	Error  string `json:"error,omitempty"`

	// Crawlable is the robots.txt verdict: the robot may fetch the URL
	// and every redirect target on the way.
	Crawlable bool `json:"crawlable"`
	// Indexable is whether the robot may index the page: it reached a
	// 2xx page, and no noindex-class directive applies to it and no
	// unavailable_after date has passed. A page robots.txt disallows is
	// never read, so its directives do not apply: it may still be indexed
	// from links, without its content (Google's robots meta tag
	// documentation), and is reported indexable with a warning.
	Indexable bool `json:"indexable"`
	// Follow is whether the robot follows the page's links: it may crawl
	// the page, reached a 2xx page, and no nofollow applies.
	Follow bool `json:"follow"`
	// Snippet is whether a text snippet may be shown: the page is
	// crawlable and indexable, and no nosnippet or max-snippet:0 applies.
	Snippet bool `json:"snippet"`
	// Expires is the unavailable_after date that applies, if any;
	// Expired is set when it has passed.
	Expires *time.Time `json:"expires,omitempty"`
	Expired bool       `json:"expired,omitempty"`

	// RobotsTxt is the verdict of robots.txt for URL.
	RobotsTxt RobotsTxt `json:"robots_txt"`
	// Redirects are the hops from URL to FinalURL, in order; the last is
	// the page itself.
	Redirects []Hop `json:"redirects"`

	// Effective is the combination of the directives for the robot.
	Effective Effective `json:"effective"`
	// Directives are every directive of the page's headers and robots
	// <meta> elements, with whether it applies to the robot.
	Directives []Directive `json:"directives"`
	// XRobotsTag holds the raw X-Robots-Tag and Robots-Tag header
	// values.
	XRobotsTag []string `json:"x_robots_tag,omitempty"`

	// ContentType is the page's Content-Type; HTML is set when it was
	// read as HTML.
	ContentType string `json:"content_type,omitempty"`
	HTML        bool   `json:"html"`
	// Bytes is how much of the body was read; Size the Content-Length
	// when the server gave one (-1 otherwise); Truncated is set when the
	// body was longer than the robot reads.
	Bytes     int64 `json:"bytes"`
	Size      int64 `json:"size"`
	Truncated bool  `json:"truncated,omitempty"`

	Title     string `json:"title,omitempty"`
	Canonical string `json:"canonical,omitempty"`
	Refresh   string `json:"refresh,omitempty"`
	// Text is the start of the visible text a snippet may use.
	Text      string        `json:"text,omitempty"`
	NoSnippet []meta.Region `json:"nosnippet_regions,omitempty"`
	// Links are the page's links with the robots.txt verdict of each,
	// LinkCount how many the page has.
	Links     []Link `json:"links"`
	LinkCount int    `json:"link_count"`

	// Usage is what the robot may do with the page, purpose by purpose
	// (search, ai-input, ai-train), and the source that says so:
	// robots.txt's Content-Usage and Content-Signal lines, the control
	// tokens that govern the robot, the response's Content-Usage,
	// Content-Signal and tdm-reservation fields, its robots meta tags and
	// X-Robots-Tag, and the site's tdmrep.json (package usage). nil when
	// no response of the page arrived (Answered); every purpose is
	// "none" when robots.txt disallows the page.
	Usage *usage.Verdicts `json:"usage,omitempty"`
	// Licenses are the License lines of the page's robots.txt (RSL 1.0):
	// URLs of the licences of the site's content.
	Licenses []string `json:"licenses,omitempty"`

	// Warnings say what the robot will trip over, most important first.
	Warnings []string `json:"warnings"`
	// Duration is how long the inspection took.
	Duration time.Duration `json:"duration_ns"`
}

// RobotsTxt is a robots.txt verdict for one URL.
type RobotsTxt struct {
	// URL is the robots.txt URL; Status its HTTP status (0 when no
	// response arrived).
	URL    string `json:"url"`
	Status int    `json:"status"`
	// Allowed is the verdict; Line the deciding rule's line (0 when no
	// rule decided) and Rule its text as written.
	Allowed bool   `json:"allowed"`
	Line    int    `json:"line"`
	Rule    string `json:"rule,omitempty"`
	// Access is "rules", "all" or "none": whether the file's rules
	// decided, or its fetch outcome allowed or barred everything, for
	// Reason.
	Access string `json:"access"`
	Reason string `json:"reason,omitempty"`
	// Site is what the file does to the robot on the whole site, for the
	// page asked for
	// (robots.Rules.Access, or the fetch outcome's access by
	// fetch.Access.For): the access object of robots audit, robots
	// compare, robots scan and the API.
	Site *robots.Access `json:"site,omitempty"`
}

// Answered reports whether a response of the page itself arrived: the
// last request was answered, and not with a redirect still to follow.
// The inspector follows a 301, 302, 303, 307 or 308 with a Location (the
// redirection statuses of RFC 9110 §15.4); a loop, its redirect limit or
// an unusable Location stops it on one. A report of a page not answered
// knows robots.txt's verdict and nothing of the page: callers show its
// Error, not its directives.
func (r *Report) Answered() bool {
	if len(r.Redirects) == 0 {
		return false
	}
	h := r.Redirects[len(r.Redirects)-1]
	switch h.Status {
	case 0:
		return false
	case 301, 302, 303, 307, 308:
		return h.Location == ""
	}
	return true
}

// A Hop is one request of the page fetch.
type Hop struct {
	URL      string `json:"url"`
	Status   int    `json:"status"`
	Location string `json:"location,omitempty"`
	// Allowed and Line are the robots.txt verdict for URL.
	Allowed bool `json:"allowed"`
	Line    int  `json:"line"`
}

// A Directive is a meta.Directive and whether it applies to the robot.
type Directive struct {
	meta.Directive
	Applies bool `json:"applies"`
}

// Effective is what the directives mean for the robot.
type Effective struct {
	NoIndex         bool   `json:"noindex"`
	NoFollow        bool   `json:"nofollow"`
	NoArchive       bool   `json:"noarchive"`
	NoSnippet       bool   `json:"nosnippet"`
	NoTranslate     bool   `json:"notranslate"`
	NoImageIndex    bool   `json:"noimageindex"`
	IndexIfEmbedded bool   `json:"indexifembedded"`
	MaxSnippet      int    `json:"max_snippet"`
	MaxImagePreview string `json:"max_image_preview,omitempty"`
	MaxVideoPreview int    `json:"max_video_preview"`
}

// A Link is a link of the page and the robots.txt verdict for it.
type Link struct {
	meta.Link
	// URL is the link resolved against the page; "" when it is not an
	// http or https URL.
	URL string `json:"url,omitempty"`
	// Allowed is the robots.txt verdict for the robot, nil when not
	// checked (another scheme, or past the limit of sites looked up);
	// RobotsLine is the deciding rule's line.
	Allowed    *bool `json:"allowed,omitempty"`
	RobotsLine int   `json:"robots_line,omitempty"`
}
