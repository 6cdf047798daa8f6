package meta

import (
	"strings"
	"time"
)

// A Verdict is what the directives of a page mean for one robot.
type Verdict struct {
	NoIndex         bool // noindex or none
	NoFollow        bool // nofollow or none
	NoArchive       bool // noarchive or nocache
	NoSnippet       bool // nosnippet, or max-snippet:0
	NoTranslate     bool
	NoImageIndex    bool
	IndexIfEmbedded bool
	// MaxSnippet is the longest snippet in characters; -1 means no limit.
	MaxSnippet int
	// MaxImagePreview is the largest image preview; PreviewUnset leaves
	// it to the robot.
	MaxImagePreview Preview
	// MaxVideoPreview is the longest video preview in seconds; -1 means
	// no limit.
	MaxVideoPreview int
	// UnavailableAfter is the earliest readable unavailable_after date,
	// zero when there is none.
	UnavailableAfter time.Time
	// Applied are the directives that apply to the robot, in the order
	// given, ignored ones (unknown, malformed) included.
	Applied []Directive
	// Notes explain conflicts between the applied directives.
	Notes []string
}

// Indexable reports whether the robot may index the page at time now: no
// noindex applies and no unavailable_after date has passed.
func (v *Verdict) Indexable(now time.Time) bool {
	return !v.NoIndex && !v.Expired(now)
}

// Expired reports whether an unavailable_after date has passed at now.
func (v *Verdict) Expired(now time.Time) bool {
	return !v.UnavailableAfter.IsZero() && !now.Before(v.UnavailableAfter)
}

// Snippet reports whether a text snippet may be shown.
func (v *Verdict) Snippet() bool { return !v.NoSnippet && v.MaxSnippet != 0 }

// Applies reports whether d is addressed to a robot whose product tokens
// are tokens (most specific first, as robots.Agent and agents.Robot.Tokens
// give them), all among ds. A directive for every robot applies unless it
// comes from a Robots-Tag field that also names one of the tokens: in
// draft-illyes-repext-00's example "*=noindex, nosnippet; ExampleBot=;",
// ExampleBot gets no rules.
func Applies(ds []Directive, d Directive, tokens ...string) bool {
	if d.Robot != "" {
		return hasToken(tokens, d.Robot)
	}
	if d.Source != RobotsTag {
		return true
	}
	for _, o := range ds {
		if o.Source == RobotsTag && o.Field == d.Field && o.Robot != "" && hasToken(tokens, o.Robot) {
			return false
		}
	}
	return true
}

func hasToken(tokens []string, robot string) bool {
	for _, t := range tokens {
		if strings.EqualFold(t, robot) {
			return true
		}
	}
	return false
}

// For combines the directives of ds that apply to a robot with product
// tokens tokens into one Verdict: the sum of the restrictive directives,
// the stricter of two limits (Google's robots meta tag documentation,
// "Handling combined indexing and serving rules"). With no tokens, only
// the directives for every robot count.
func For(ds []Directive, tokens ...string) Verdict {
	v := Verdict{MaxSnippet: -1, MaxVideoPreview: -1}
	var positive []string // index, follow, all: noted when overruled
	for _, d := range ds {
		if !Applies(ds, d, tokens...) {
			continue
		}
		if d.Name == "" { // a Robots-Tag entry naming a robot with no rules
			continue
		}
		v.Applied = append(v.Applied, d)
		switch d.kind {
		case kDefault:
			positive = append(positive, d.Name)
		case kNoIndex:
			v.NoIndex = true
		case kNoFollow:
			v.NoFollow = true
		case kNone:
			v.NoIndex, v.NoFollow = true, true
		case kNoArchive, kNoCache:
			v.NoArchive = true
		case kNoSnippet:
			v.NoSnippet = true
		case kNoTranslate:
			v.NoTranslate = true
		case kNoImageIndex:
			v.NoImageIndex = true
		case kIndexIfEmbedded:
			v.IndexIfEmbedded = true
		case kMaxSnippet:
			v.MaxSnippet = stricter(v.MaxSnippet, d.num)
		case kMaxVideoPreview:
			v.MaxVideoPreview = stricter(v.MaxVideoPreview, d.num)
		case kMaxImagePreview:
			if v.MaxImagePreview == PreviewUnset || d.image < v.MaxImagePreview {
				v.MaxImagePreview = d.image
			}
		case kUnavailable:
			if !d.date.IsZero() && (v.UnavailableAfter.IsZero() || d.date.Before(v.UnavailableAfter)) {
				v.UnavailableAfter = d.date
			}
		}
	}
	if v.MaxSnippet == 0 {
		// Google: "max-snippet:0 — no snippet is to be shown. Equivalent
		// to nosnippet."
		v.NoSnippet = true
	}
	for _, p := range positive {
		switch {
		case p == "index" && v.NoIndex:
			v.Notes = append(v.Notes, "both index and noindex apply; the restrictive noindex wins")
		case p == "follow" && v.NoFollow:
			v.Notes = append(v.Notes, "both follow and nofollow apply; the restrictive nofollow wins")
		case p == "all" && (v.NoIndex || v.NoFollow || v.NoSnippet || v.NoArchive || v.NoImageIndex || v.NoTranslate):
			v.Notes = append(v.Notes, "\"all\" lifts nothing: the restrictive directives beside it still apply")
		}
	}
	if v.IndexIfEmbedded && !v.NoIndex {
		v.Notes = append(v.Notes, "indexifembedded has an effect only together with noindex")
	}
	if v.NoSnippet && v.MaxSnippet > 0 {
		v.Notes = append(v.Notes, "both nosnippet and max-snippet apply; the restrictive nosnippet wins")
	}
	return v
}

// stricter returns the stricter of two limits where -1 means none.
func stricter(a, b int) int {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	case b < a:
		return b
	}
	return a
}
