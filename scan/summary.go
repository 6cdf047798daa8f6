package scan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/syntax"
)

// A Summary counts rows into the tables that robots.txt studies publish:
// the shapes of the robots.txt section of the HTTP Archive Web Almanac's
// SEO chapter (https://almanac.httparchive.org/en/2024/seo: status codes,
// size, User-agent usage), of Cloudflare Radar's robots.txt data
// (https://developers.cloudflare.com/api/resources/radar/subresources/robots_txt/:
// AI user agents fully or partially disallowed) and of "Consent in Crisis"
// (Longpre et al. 2024, https://arxiv.org/abs/2407.14933: each AI agent
// blocked from all, some or none of a site; the share of sites that
// restrict each AI purpose, here from the usage preferences of the
// files). docs/scan.md lists the tables with the DuckDB SQL that gives
// the same numbers from the rows, for all but the usage table, whose
// values SQL cannot read as the drafts do.
//
// A Summary holds only counts, never a ratio, and every map in full, so
// that summaries add up exactly: the Merge of the summaries of the parts
// of any split of a set of rows equals the Summary of the whole set. The
// zero value is an empty Summary ready to use. Its JSON form (json.Marshal,
// WriteJSON) is the file format that ReadSummary reads back; it carries
// "version": 1.
//
// A capture is one Row. A site is a capture with a usable robots.txt:
// one that robots of the "google" fetch policy read as rules (a 2xx
// response, Google's robots.txt documentation,
// https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#http-status-codes),
// whose body is not an HTML page and that is not a revisit record without
// its payload. Captures of the same host are not merged into one site:
// distinct counts cannot be added across shards, so each capture counts.
type Summary struct {
	// Captures counts the rows.
	Captures int64 `json:"captures"`
	// Sites counts the rows with a usable robots.txt (see above).
	Sites int64 `json:"sites"`
	// HTML, OverLimit, Truncated and Revisits count the rows with the
	// Row field of the same name set.
	HTML      int64 `json:"html"`
	OverLimit int64 `json:"over_limit"`
	Truncated int64 `json:"truncated"`
	Revisits  int64 `json:"revisits"`
	// LintTimeouts counts the rows whose checker ran out of its budget.
	LintTimeouts int64 `json:"lint_timeouts"`

	// Status counts captures by exact HTTP status code (Row.Status).
	Status map[int]int64 `json:"status,omitempty"`
	// Sizes counts sites by payload size (Row.Bytes) in bins keyed by
	// their upper bound: "0" (empty), "1k" (at most 1 KiB), "10k",
	// "100k", "200k", "300k", "400k", "500k", then "more" (over 500 KiB).
	Sizes map[string]int64 `json:"sizes,omitempty"`
	// Outcomes counts captures by fetch policy, then by outcome under it
	// (Row.Outcomes).
	Outcomes map[string]map[string]int64 `json:"outcomes,omitempty"`
	// Directives counts, per key as written and lower-cased, the sites
	// with at least one line of it and those lines (Row.Directives).
	Directives map[string]KeyUse `json:"directives,omitempty"`
	// Agents counts, per lower-cased User-agent value, the sites that
	// name it on at least one line (Row.Agents[].Lower).
	Agents map[string]int64 `json:"agents,omitempty"`
	// Robots holds, per robot token, the sites by how the robot's group
	// was found and what the robot may do there (Row.Robots).
	Robots map[string]VerdictCounts `json:"robots,omitempty"`
	// Lint counts, per checker code, the captures and the sites whose
	// checker reported it (Row.Lint).
	Lint map[string]LintUse `json:"lint,omitempty"`
	// Usage counts, per purpose of use ("search", "ai-input",
	// "ai-train"), the sites by what their robots.txt says of it, and by
	// which source (UsageCounts). The sites with Content-Usage,
	// Content-Signal and License lines, and those lines, are the
	// Directives of keys "content-usage", "content-signal" and "license":
	// Row.ContentUsage, Row.ContentSignal and Row.License hold the values
	// of the lines that Row.Directives counts under those keys.
	Usage map[string]UsageCounts `json:"usage,omitempty"`

	robots robotKeys // Add's keys of the last rows' robots
}

// UsageCounts counts the sites by what their robots.txt says of one
// purpose of use. The statements of a site are:
//
//   - its Content-Usage lines (Row.ContentUsage), each read as
//     robots.Rules.UsageStatements reads the line: an optional path, then
//     an AIPREF value (draft-ietf-aipref-vocab-08: train-ai, ai-use,
//     search);
//   - its Content-Signal lines (Row.ContentSignal: search, ai-input,
//     ai-train), read the same way;
//   - the usage control tokens of the registry (agents.Robot.Controls:
//     Google-Extended for ai-input and ai-train, Applebot-Extended for
//     ai-train) that a group names and bars from some path: a verdict of
//     Row.Robots with Via "named" and a State other than "open", which
//     says no to the control's purposes.
//
// Each counts whatever group or path it applies to: a site says no to a
// purpose when one of its statements says so for some robot or some path,
// as Consent in Crisis counts the partial restrictions with the full ones.
// The statements combine as draft-ietf-aipref-vocab-08 §5.1 says: any no
// wins, then any yes; none when no statement speaks of the purpose.
type UsageCounts struct {
	// No, Yes and None count the sites by that combination; together,
	// the sites counted.
	No   int64 `json:"no"`
	Yes  int64 `json:"yes"`
	None int64 `json:"none"`
	// Sources counts, per source ("Content-Usage", "Content-Signal" or
	// the control token's registry token, "Google-Extended"), the sites
	// under "no" whose source says no, and those under "yes" whose source
	// says yes. A site with several sources counts under each.
	Sources map[string]map[string]int64 `json:"sources,omitempty"`
}

// The sources of UsageCounts.Sources other than the control tokens.
const (
	sumContentUsage  = "Content-Usage"
	sumContentSignal = "Content-Signal"
)

// A KeyUse counts the sites whose robots.txt has a directive key, and the
// lines with that key on them.
type KeyUse struct {
	Sites int64 `json:"sites"`
	Lines int64 `json:"lines"`
}

// A LintUse counts the captures, and among them the sites, on which the
// checker reported a code.
type LintUse struct {
	Captures int64 `json:"captures"`
	Sites    int64 `json:"sites"`
}

// VerdictCounts counts the sites by Verdict.Via, then Verdict.State:
// v["named"]["blocked"] is the number of sites where a group names the
// robot and bars it from "/". Values other than the documented ones are
// counted as they come.
type VerdictCounts map[string]map[string]int64

// The values of Outcome.Policy, Outcome.Outcome, Verdict.State and
// Verdict.Via that the summary names.
const (
	sumSitePolicy = "google" // whose outcome decides whether a capture is a site
	sumRules      = "rules"
	sumBlocked    = "blocked"
	sumPartly     = "partly"
	sumOpen       = "open"
	sumNamed      = "named"
	sumFallback   = "fallback"
	sumStar       = "star"
)

// A sumBin is one bin of the size table: the sites whose payload has at
// most Max bytes and more than the previous bin's Max.
type sumBin struct {
	// Key names the bin in the JSON form and in docs/scan.md's SQL.
	Key string
	// Label is the bin as the report shows it.
	Label string
	// Max is the bin's upper bound in bytes, inclusive; -1 for the last
	// bin, which has none.
	Max int64
}

// sumSizeBins are the size bins, smallest first: the Web Almanac's (empty,
// then 100 KiB steps up to the 500 KiB that RFC 9309 §2.5 lets a crawler
// stop at, then more; robots-txt-size-2024.sql of the 2024 SEO chapter,
// https://almanac.httparchive.org/en/2024/seo#robotstxt-size), with their
// first step cut at 1 KiB and 10 KiB because it holds nearly every file
// (96.5% of mobile sites in 2024): the three bins after "0" add up to
// the Almanac's "0–100 KB".
var sumSizeBins = []sumBin{
	{"0", "0 B", 0},
	{"1k", "≤ 1 KiB", 1 << 10},
	{"10k", "1–10 KiB", 10 << 10},
	{"100k", "10–100 KiB", 100 << 10},
	{"200k", "100–200 KiB", 200 << 10},
	{"300k", "200–300 KiB", 300 << 10},
	{"400k", "300–400 KiB", 400 << 10},
	{"500k", "400–500 KiB", 500 << 10},
	{"more", "> 500 KiB", -1},
}

// sumSizeBin returns the key of the bin of a payload of n bytes.
func sumSizeBin(n int64) string {
	for _, b := range sumSizeBins {
		if b.Max < 0 || n <= b.Max {
			return b.Key
		}
	}
	return sumSizeBins[len(sumSizeBins)-1].Key
}

// IsSite reports whether a row counts as a site: the "google" fetch
// policy reads its response as rules, its body is not HTML and it is not a
// revisit record without its payload.
func IsSite(r *Row) bool {
	if r == nil || r.HTML || r.Revisit {
		return false
	}
	for _, o := range r.Outcomes {
		if o.Policy == sumSitePolicy {
			return o.Outcome == sumRules
		}
	}
	return false
}

// Add counts one row. Keys are counted as valid UTF-8 (each invalid byte
// as U+FFFD), the form they take in JSON; a list of the row that repeats a
// policy, key, value, robot or code counts it once (the first outcome or
// verdict, the sum of a key's lines). A nil row is ignored.
func (s *Summary) Add(r *Row) {
	s.add(r, true)
}

// add is Add, leaving out the row's verdicts unless robots is set: Run
// counts the verdict lists its rows share once per list (addVerdicts).
func (s *Summary) add(r *Row, robots bool) {
	if r == nil {
		return
	}
	site := IsSite(r)
	s.Captures++
	s.HTML += count01(r.HTML)
	s.OverLimit += count01(r.OverLimit)
	s.Truncated += count01(r.Truncated)
	s.Revisits += count01(r.Revisit)
	s.LintTimeouts += count01(r.LintTimeout)
	s.Status = addCount(s.Status, r.Status, 1)

	var seen keySet
	for _, o := range r.Outcomes {
		p := validKey(o.Policy)
		if seen.add(p) {
			if s.Outcomes == nil {
				s.Outcomes = map[string]map[string]int64{}
			}
			s.Outcomes[p] = addCount(s.Outcomes[p], validKey(o.Outcome), 1)
		}
	}

	seen.reset()
	for _, code := range r.Lint {
		c := validKey(code)
		if seen.add(c) {
			if s.Lint == nil {
				s.Lint = map[string]LintUse{}
			}
			u := s.Lint[c]
			u.Captures++
			u.Sites += count01(site)
			s.Lint[c] = u
		}
	}

	if !site {
		return
	}
	s.Sites++
	s.Sizes = addCount(s.Sizes, sumSizeBin(r.Bytes), 1)

	seen.reset()
	for _, d := range r.Directives {
		if d.Count <= 0 {
			continue
		}
		k := validKey(d.Key)
		if s.Directives == nil {
			s.Directives = map[string]KeyUse{}
		}
		u := s.Directives[k]
		if seen.add(k) {
			u.Sites++
		}
		u.Lines += int64(d.Count)
		s.Directives[k] = u
	}

	seen.reset()
	for _, a := range r.Agents {
		v := validKey(a.Lower)
		if seen.add(v) {
			s.Agents = addCount(s.Agents, v, 1)
		}
	}

	s.addUsage(r)

	if robots {
		s.addVerdicts(r.Robots, 1)
	}
}

// addUsage counts what the statements of a site say of each purpose
// (UsageCounts).
func (s *Summary) addUsage(r *Row) {
	var cu, cs sumPrefs
	for _, st := range usageStatements(r) {
		by := &cu
		if st.Field == syntax.ContentSignal {
			by = &cs
		}
		for p, v := range st.Prefs {
			by[p] = max(by[p], v) // No > Yes > NoPreference
		}
	}
	ctl := s.robotKeys(r.Robots).controls
	if s.Usage == nil {
		s.Usage = map[string]UsageCounts{}
	}
	for p := range robots.NumPurposes {
		all := max(cu[p], cs[p])
		for _, c := range ctl {
			if c.says(r.Robots[c.i], p) {
				all = robots.No
			}
		}
		name := p.String()
		u := s.Usage[name]
		switch all {
		case robots.No:
			u.No++
		case robots.Yes:
			u.Yes++
		default:
			u.None++
		}
		if all != robots.NoPreference {
			v := all.String()
			if cu[p] == all {
				u.Sources = addSource(u.Sources, sumContentUsage, v)
			}
			if cs[p] == all {
				u.Sources = addSource(u.Sources, sumContentSignal, v)
			}
			for _, c := range ctl {
				if c.says(r.Robots[c.i], p) {
					u.Sources = addSource(u.Sources, validKey(r.Robots[c.i].Robot), v)
				}
			}
		}
		s.Usage[name] = u
	}
}

// addSource adds a site to m[source][value], making the maps when needed.
func addSource(m map[string]map[string]int64, source, value string) map[string]map[string]int64 {
	if m == nil {
		m = map[string]map[string]int64{}
	}
	m[source] = addCount(m[source], value, 1)
	return m
}

// sumPrefs holds a preference for each purpose, indexed by
// robots.Purpose.
type sumPrefs [robots.NumPurposes]robots.Preference

// usageStatements reads the values of a row's Content-Usage and
// Content-Signal lines as the root package reads those lines: as the
// lines of a "*" group, whose statements robots.Rules.UsageStatements
// gives. No value of Analyze holds a line break; one of a row made by
// hand is read as if its line breaks were spaces.
func usageStatements(r *Row) []robots.UsageStatement {
	if len(r.ContentUsage)+len(r.ContentSignal) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for _, l := range [...]struct {
		key    string
		values []string
	}{{"Content-Usage: ", r.ContentUsage}, {"Content-Signal: ", r.ContentSignal}} {
		for _, v := range l.values {
			b.WriteString(l.key)
			b.WriteString(oneLine.Replace(v))
			b.WriteByte('\n')
		}
	}
	return robots.Parse([]byte(b.String()), robots.Google).UsageStatements(robots.Agent{})
}

// oneLine turns the line breaks of robots.txt (RFC 9309 §2.2: LF, CR)
// into spaces.
var oneLine = strings.NewReplacer("\r", " ", "\n", " ")

// A sumControl is a verdict of a row's list that is a usage control
// token's: its index, and the purposes a Disallow in its group withholds.
type sumControl struct {
	i        int
	purposes sumPrefs // No for each purpose of agents.Control.Purposes
}

// says reports whether the control's verdict v says no to purpose p: a
// group names the token and bars it from some path.
func (c sumControl) says(v Verdict, p robots.Purpose) bool {
	return c.purposes[p] == robots.No && v.Via == sumNamed && v.State != sumOpen
}

// sumControlPurposes holds, by registry token, the purposes of each usage
// control token of the registry.
var sumControlPurposes = sync.OnceValue(func() map[string]sumPrefs {
	m := map[string]sumPrefs{}
	for _, r := range agents.All() {
		if r.Controls == nil {
			continue
		}
		var ps sumPrefs
		for _, name := range r.Controls.Purposes {
			if p, ok := sumPurpose(name); ok {
				ps[p] = robots.No
			}
		}
		m[r.Token] = ps
	}
	return m
})

// sumPurpose returns the purpose named name ("search", "ai-input",
// "ai-train").
func sumPurpose(name string) (robots.Purpose, bool) {
	for p := range robots.NumPurposes {
		if p.String() == name {
			return p, true
		}
	}
	return 0, false
}

// sumControlTokens returns the registry's usage control tokens, sorted.
func sumControlTokens() []string {
	var out []string
	for t := range sumControlPurposes() {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// addVerdicts counts the verdicts of n sites whose rows hold vs.
func (s *Summary) addVerdicts(vs []Verdict, n int64) {
	c := s.robotKeys(vs)
	keys, dup := c.keys, c.dup
	for i := range vs {
		if dup[i] {
			continue // a robot named before in the list
		}
		t := keys[i]
		if s.Robots == nil {
			s.Robots = map[string]VerdictCounts{}
		}
		vc := s.Robots[t]
		if vc == nil {
			vc = VerdictCounts{}
			s.Robots[t] = vc
		}
		via := validKey(vs[i].Via)
		vc[via] = addCount(vc[via], validKey(vs[i].State), n)
	}
}

// robotKeys returns, for the verdicts vs, the key of each verdict's robot
// in Robots, whether a robot of the same key came before in the list (it
// counts once), and the verdicts of the registry's usage control tokens;
// it works them out once for a run of rows with the same robots in the
// same order.
func (s *Summary) robotKeys(vs []Verdict) *robotKeys {
	c := &s.robots
	same := len(c.tokens) == len(vs)
	for i := 0; same && i < len(vs); i++ {
		same = c.tokens[i] == vs[i].Robot
	}
	if same {
		return c
	}
	c.tokens, c.keys, c.dup, c.controls = c.tokens[:0], c.keys[:0], c.dup[:0], c.controls[:0]
	var seen keySet
	ctl := sumControlPurposes()
	for i, v := range vs {
		k := validKey(v.Robot)
		c.tokens = append(c.tokens, v.Robot)
		c.keys = append(c.keys, k)
		first := seen.add(k)
		c.dup = append(c.dup, !first)
		if ps, ok := ctl[k]; ok && first {
			c.controls = append(c.controls, sumControl{i: i, purposes: ps})
		}
	}
	return c
}

// robotKeys is the memory of Summary.robotKeys.
type robotKeys struct {
	tokens, keys []string
	dup          []bool
	controls     []sumControl
}

// Merge adds the counts of o to s. o is not changed and shares nothing
// with s afterwards; a nil o adds nothing.
func (s *Summary) Merge(o *Summary) {
	if o == nil {
		return
	}
	s.Captures += o.Captures
	s.Sites += o.Sites
	s.HTML += o.HTML
	s.OverLimit += o.OverLimit
	s.Truncated += o.Truncated
	s.Revisits += o.Revisits
	s.LintTimeouts += o.LintTimeouts
	for k, n := range o.Status {
		s.Status = addCount(s.Status, k, n)
	}
	for k, n := range o.Sizes {
		s.Sizes = addCount(s.Sizes, k, n)
	}
	for p, m := range o.Outcomes {
		for k, n := range m {
			if s.Outcomes == nil {
				s.Outcomes = map[string]map[string]int64{}
			}
			s.Outcomes[p] = addCount(s.Outcomes[p], k, n)
		}
	}
	for k, u := range o.Directives {
		if s.Directives == nil {
			s.Directives = map[string]KeyUse{}
		}
		w := s.Directives[k]
		w.Sites += u.Sites
		w.Lines += u.Lines
		s.Directives[k] = w
	}
	for k, n := range o.Agents {
		s.Agents = addCount(s.Agents, k, n)
	}
	for t, vs := range o.Robots {
		for via, m := range vs {
			for st, n := range m {
				if s.Robots == nil {
					s.Robots = map[string]VerdictCounts{}
				}
				w := s.Robots[t]
				if w == nil {
					w = VerdictCounts{}
					s.Robots[t] = w
				}
				w[via] = addCount(w[via], st, n)
			}
		}
	}
	for k, u := range o.Lint {
		if s.Lint == nil {
			s.Lint = map[string]LintUse{}
		}
		w := s.Lint[k]
		w.Captures += u.Captures
		w.Sites += u.Sites
		s.Lint[k] = w
	}
	for k, u := range o.Usage {
		if s.Usage == nil {
			s.Usage = map[string]UsageCounts{}
		}
		w := s.Usage[k]
		w.No += u.No
		w.Yes += u.Yes
		w.None += u.None
		for src, m := range u.Sources {
			for v, n := range m {
				if w.Sources == nil {
					w.Sources = map[string]map[string]int64{}
				}
				w.Sources[src] = addCount(w.Sources[src], v, n)
			}
		}
		s.Usage[k] = w
	}
}

// SummaryVersion is the version of the JSON form that MarshalJSON writes
// and ReadSummary reads.
const SummaryVersion = 1

// summaryFields has the fields of Summary without its methods, so that
// MarshalJSON can embed them.
type summaryFields Summary

// MarshalJSON implements json.Marshaler: the fields of the Summary after
// "version": 1.
func (s Summary) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Version int `json:"version"`
		*summaryFields
	}{SummaryVersion, (*summaryFields)(&s)})
}

// MaxSummarySize is the most bytes ReadSummary reads: 1 GiB, room for the
// User-agent values of a whole Common Crawl robots.txt crawl.
const MaxSummarySize = 1 << 30

// summaryLimit is MaxSummarySize, which tests lower.
var summaryLimit int64 = MaxSummarySize

// sumMaxKey bounds the keys of a Summary read back: no User-agent value or
// directive key can be longer than the body Analyze reads (MaxBody).
const sumMaxKey = MaxBody

// ReadSummary reads a Summary in its JSON form, as WriteJSON writes it:
// one JSON object with "version": 1, nothing but white space after it, at
// most MaxSummarySize bytes, with no unknown field and counts that a
// Summary built by Add and Merge could have (none negative, no zero entry,
// no part larger than its whole: sites ≤ captures, the status counts add
// up to the captures, the size bins to the sites, a key used on at most
// every site …).
func ReadSummary(r io.Reader) (*Summary, error) {
	b, err := io.ReadAll(io.LimitReader(r, summaryLimit+1))
	if err != nil {
		return nil, fmt.Errorf("scan: reading summary: %w", err)
	}
	if int64(len(b)) > summaryLimit {
		return nil, fmt.Errorf("scan: summary larger than %d bytes", summaryLimit)
	}
	var in struct {
		Version *int `json:"version"`
		summaryFields
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("scan: summary: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("scan: summary: data after the JSON object")
	}
	switch {
	case in.Version == nil:
		return nil, errors.New(`scan: summary: no "version"`)
	case *in.Version != SummaryVersion:
		return nil, fmt.Errorf("scan: summary: version %d, want %d", *in.Version, SummaryVersion)
	}
	s := Summary(in.summaryFields)
	if err := s.validate(); err != nil {
		return nil, fmt.Errorf("scan: summary: %w", err)
	}
	return &s, nil
}

// validate reports the first count that no Summary built by Add and Merge
// could hold.
func (s *Summary) validate() error {
	for _, f := range []struct {
		name string
		n    int64
	}{
		{"captures", s.Captures}, {"sites", s.Sites}, {"html", s.HTML},
		{"over_limit", s.OverLimit}, {"truncated", s.Truncated},
		{"revisits", s.Revisits}, {"lint_timeouts", s.LintTimeouts},
	} {
		if f.n < 0 || f.n > s.Captures {
			return fmt.Errorf("%s = %d, want 0 to captures (%d)", f.name, f.n, s.Captures)
		}
	}
	status := make(map[string]int64, len(s.Status))
	for k, n := range s.Status {
		status[strconv.Itoa(k)] = n
	}
	if err := sumCheckCounts("status", status, s.Captures, true); err != nil {
		return err
	}
	for k := range s.Sizes {
		if !sumKnownBin(k) {
			return fmt.Errorf("sizes: unknown bin %q", k)
		}
	}
	if err := sumCheckCounts("sizes", s.Sizes, s.Sites, true); err != nil {
		return err
	}
	for p, m := range s.Outcomes {
		if err := sumCheckKey("outcomes", p); err != nil {
			return err
		}
		if err := sumCheckCounts("outcomes["+strconv.Quote(p)+"]", m, s.Captures, false); err != nil {
			return err
		}
	}
	for k, u := range s.Directives {
		if err := sumCheckKey("directives", k); err != nil {
			return err
		}
		if u.Sites <= 0 || u.Sites > s.Sites || u.Lines < u.Sites {
			return fmt.Errorf("directives[%q]: %d lines on %d sites, want 1 to %d sites and at least a line each", k, u.Lines, u.Sites, s.Sites)
		}
	}
	for k, n := range s.Agents {
		if err := sumCheckKey("agents", k); err != nil {
			return err
		}
		if n <= 0 || n > s.Sites {
			return fmt.Errorf("agents[%q] = %d, want 1 to sites (%d)", k, n, s.Sites)
		}
	}
	for t, vs := range s.Robots {
		if err := sumCheckKey("robots", t); err != nil {
			return err
		}
		name := "robots[" + strconv.Quote(t) + "]"
		if len(vs) == 0 {
			return fmt.Errorf("%s is empty", name)
		}
		var all int64
		for via, m := range vs {
			if err := sumCheckKey(name, via); err != nil {
				return err
			}
			if err := sumCheckCounts(name+"["+strconv.Quote(via)+"]", m, s.Sites-all, false); err != nil {
				return err
			}
			all += sumCounts(m)
		}
	}
	for k, u := range s.Lint {
		if err := sumCheckKey("lint", k); err != nil {
			return err
		}
		if u.Captures <= 0 || u.Captures > s.Captures || u.Sites < 0 || u.Sites > u.Captures || u.Sites > s.Sites {
			return fmt.Errorf("lint[%q]: %d captures, %d sites; want 1 to captures (%d), and 0 to min(those, sites %d)", k, u.Captures, u.Sites, s.Captures, s.Sites)
		}
	}
	for k, u := range s.Usage {
		if _, ok := sumPurpose(k); !ok {
			return fmt.Errorf("usage: unknown purpose %q", k)
		}
		name := "usage[" + strconv.Quote(k) + "]"
		counts := map[string]int64{"no": u.No, "yes": u.Yes, "none": u.None}
		var n int64
		for v, c := range counts {
			if c < 0 || c > s.Sites-n {
				return fmt.Errorf("%s: %s = %d: counts must be 0 or more and add up to at most sites (%d)", name, v, c, s.Sites)
			}
			n += c
		}
		if n == 0 {
			return fmt.Errorf("%s counts no site", name)
		}
		for src, m := range u.Sources {
			if err := sumCheckKey(name+".sources", src); err != nil {
				return err
			}
			sname := name + ".sources[" + strconv.Quote(src) + "]"
			if len(m) == 0 {
				return fmt.Errorf("%s is empty", sname)
			}
			for v, c := range m {
				if v != "no" && v != "yes" {
					return fmt.Errorf("%s: unknown value %q", sname, v)
				}
				if c <= 0 || c > counts[v] {
					return fmt.Errorf("%s[%q] = %d, want 1 to the sites that say %s (%d)", sname, v, c, v, counts[v])
				}
			}
		}
	}
	return nil
}

// sumCheckKey reports a key that Add could not have made.
func sumCheckKey(name, k string) error {
	if len(k) > sumMaxKey || !utf8.ValidString(k) {
		return fmt.Errorf("%s: a key is not valid UTF-8 of at most %d bytes", name, sumMaxKey)
	}
	return nil
}

// sumCheckCounts reports a key of m that Add could not have made, a count
// that is not positive, or counts that add up to more than limit (or, when
// exact is set, to anything but limit).
func sumCheckCounts(name string, m map[string]int64, limit int64, exact bool) error {
	if m != nil && len(m) == 0 && !exact {
		return fmt.Errorf("%s is empty", name)
	}
	var t int64
	for k, n := range m {
		if err := sumCheckKey(name, k); err != nil {
			return err
		}
		if n <= 0 || n > limit-t {
			return fmt.Errorf("%s[%q] = %d: counts must be positive and add up to at most %d", name, k, n, limit)
		}
		t += n
	}
	if exact && t != limit {
		return fmt.Errorf("%s add up to %d, want %d", name, t, limit)
	}
	return nil
}

// sumKnownBin reports whether k is the key of a size bin.
func sumKnownBin(k string) bool {
	for _, b := range sumSizeBins {
		if b.Key == k {
			return true
		}
	}
	return false
}

// sumCounts adds up the counts of m; callers pass maps whose counts were
// checked to add up to at most an int64.
func sumCounts[K comparable](m map[K]int64) int64 {
	var t int64
	for _, n := range m {
		t += n
	}
	return t
}

// addCount adds n to m[k], making m when it is nil, and returns m.
func addCount[K comparable](m map[K]int64, k K, n int64) map[K]int64 {
	if m == nil {
		m = map[K]int64{}
	}
	m[k] += n
	return m
}

func count01(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// validKey returns s as valid UTF-8, each invalid byte replaced by U+FFFD as
// encoding/json writes it, so that a count keeps its key across a JSON
// round trip.
func validKey(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b []byte
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

// A keySet remembers the strings of one row's list, to count each once. Rows
// have a handful of entries, so a slice beats a map until it grows.
type keySet struct {
	list []string
	m    map[string]struct{}
}

// add reports whether k is new, and remembers it.
func (s *keySet) add(k string) bool {
	if s.m != nil {
		if _, ok := s.m[k]; ok {
			return false
		}
		s.m[k] = struct{}{}
		return true
	}
	for _, x := range s.list {
		if x == k {
			return false
		}
	}
	s.list = append(s.list, k)
	if len(s.list) > 16 {
		s.m = make(map[string]struct{}, 2*len(s.list))
		for _, x := range s.list {
			s.m[x] = struct{}{}
		}
	}
	return true
}

func (s *keySet) reset() {
	s.list = s.list[:0]
	s.m = nil
}
