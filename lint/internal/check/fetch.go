package check

import "time"

// Fetch is how robots.txt was fetched, as the checks read it: the fields
// of lint.Fetch that some check looks at, documented there.
type Fetch struct {
	Hops                               []Hop
	Elapsed                            time.Duration
	TimedOut                           bool
	Err                                string
	ContentType, CacheControl, Expires string
	Size                               int64
	TooManyRedirects, Loop             bool
	Broken                             string
	Policy, Reason                     string
	CaseVariant                        string
	Date                               time.Time
	Siblings                           []Sibling
}

// A Hop is one request of a fetch (lint.Hop).
type Hop struct {
	URL      string
	Status   int
	Location string
}

// A Sibling is the robots.txt of an origin next to the one checked
// (lint.Sibling).
type Sibling struct {
	URL    string
	Status int
	Body   string
}

// Final returns the last hop, or a zero Hop when there is none (or no
// fetch).
func (f *Fetch) Final() Hop {
	if f == nil || len(f.Hops) == 0 {
		return Hop{}
	}
	return f.Hops[len(f.Hops)-1]
}

// OK reports whether the fetch ended with a whole 2xx body, which the
// checks of the content read.
func (f *Fetch) OK() bool {
	return f != nil && f.Broken == "" && OKStatus(f.Final().Status)
}

// OKStatus reports whether s is a success status.
func OKStatus(s int) bool { return s >= 200 && s <= 299 }
