package parquet

import (
	"slices"
	"time"
	"unicode/utf8"

	pq "github.com/parquet-go/parquet-go"

	"github.com/robotskit/robots/scan"
)

// A fileRow is a row as the file holds it: scan.Row's columns, in its
// order, with one more, agents.raw, and every string valid UTF-8 (set).
// parquet-go derives the file's schema from its tags, as it would from
// scan.Row's.
//
// Parquet's types (https://parquet.apache.org/docs/file-format/types/)
// and logical types
// (https://github.com/apache/parquet-format/blob/master/LogicalTypes.md):
// a string is a BYTE_ARRAY with the STRING annotation, which says that
// its bytes are UTF-8 (LogicalTypes.md, "STRING": "must be encoded as
// UTF-8"); agents.raw is a BYTE_ARRAY without it, bytes with no
// character encoding, which DuckDB reads as a BLOB. Whole numbers are
// INT64 annotated INT(64, true), a time a TIMESTAMP(isAdjustedToUTC,
// MILLIS) INT64, each list the three-level LIST structure
// (LogicalTypes.md, "Lists"): a required group annotated LIST holding a
// repeated group "list" of one "element".
//
// The `dict` columns are dictionary-encoded (RLE_DICTIONARY, Parquet's
// "Dictionary Encoding",
// https://parquet.apache.org/docs/file-format/data-pages/encodings/):
// each distinct value is stored once per row group and each row holds a
// small index into it, which suits the columns of few values (the robots'
// tokens, states, policies): on the rows of BenchmarkWriter the file is
// 92 bytes a row instead of 128 with every string column plain, for about
// a tenth more of the writer's work (a map lookup per value).
type fileRow struct {
	URL           string        `parquet:"url"`
	Host          string        `parquet:"host"`
	Domain        string        `parquet:"domain"`
	Time          time.Time     `parquet:"time,optional,timestamp(millisecond)"`
	Source        string        `parquet:"source,dict"`
	Offset        int64         `parquet:"offset"`
	Status        int64         `parquet:"status"`
	RedirectTo    string        `parquet:"redirect_to"`
	ContentType   string        `parquet:"content_type,dict"`
	HTML          bool          `parquet:"html"`
	Bytes         int64         `parquet:"bytes"`
	OverLimit     bool          `parquet:"over_limit"`
	Truncated     bool          `parquet:"truncated"`
	Revisit       bool          `parquet:"revisit"`
	Encoding      string        `parquet:"encoding,dict"`
	BOM           bool          `parquet:"bom"`
	Outcomes      []fileOutcome `parquet:"outcomes,list"`
	Directives    []fileKey     `parquet:"directives,list"`
	Groups        int64         `parquet:"groups"`
	Rules         int64         `parquet:"rules"`
	Sitemaps      int64         `parquet:"sitemaps"`
	Agents        []fileAgent   `parquet:"agents,list"`
	ContentSignal []string      `parquet:"content_signal,list"`
	ContentUsage  []string      `parquet:"content_usage,list"`
	License       []string      `parquet:"license,list"`
	Robots        []fileVerdict `parquet:"robots,list"`
	Lint          []string      `parquet:"lint,list,dict"`
	LintTimeout   bool          `parquet:"lint_timeout"`
}

// A fileOutcome is scan.Outcome in the file.
type fileOutcome struct {
	Policy  string `parquet:"policy,dict"`
	Outcome string `parquet:"outcome,dict"`
}

// A fileKey is scan.KeyCount in the file.
type fileKey struct {
	Key   string `parquet:"key,dict"`
	Count int64  `parquet:"count"`
}

// A fileAgent is scan.AgentValue in the file, with Raw: the value's bytes
// as written when they are not valid UTF-8 (Value then holds them with
// each invalid byte replaced by U+FFFD), null otherwise.
type fileAgent struct {
	Value string `parquet:"value,dict"`
	Lower string `parquet:"lower,dict"`
	Token string `parquet:"token,dict"`
	Line  int64  `parquet:"line"`
	Raw   []byte `parquet:"raw,optional"`
}

// A fileVerdict is scan.Verdict in the file.
type fileVerdict struct {
	Robot      string  `parquet:"robot,dict"`
	State      string  `parquet:"state,dict"`
	Via        string  `parquet:"via,dict"`
	Line       int64   `parquet:"line"`
	Group      int64   `parquet:"group"`
	CrawlDelay float64 `parquet:"crawl_delay"`
	// AITrain is written plain, not as a dictionary: of its three values,
	// "none" nearly always, zstd makes a few bytes a page. A dictionary
	// would make the file 3% smaller for a map lookup for each of the
	// ninety-odd values of a row, a fifth more of the writer's work on rows
	// that share their verdict lists as an Analyzer's do.
	AITrain string `parquet:"ai_train"`
}

// schema is the file's schema.
var schema = pq.SchemaOf(fileRow{})

// skipBounds leaves out the minimum and maximum values of the columns of
// the lists: from each page's header (pq.SkipPageStatistics)
// and from the column index and the column chunk's statistics
// (pq.SkipPageBounds), all optional in Parquet
// (https://parquet.apache.org/docs/file-format/metadata/,
// https://parquet.apache.org/docs/file-format/pageindex/). A reader skips
// a page or a row group by them only when the value it looks for lies
// outside the bounds, and every page of these columns holds about every
// value (each row has a verdict per robot, an outcome per policy, the
// common keys and User-agent values), so they would let no reader skip
// anything; working them out, twice, with a comparison of strings per
// value, was the largest part of writing a row. The numbers of the lists
// (lines, counts, Crawl-delays) go without bounds too: a reader filters
// on them only after unnesting the list, where page bounds serve nothing.
var skipBounds = func() []pq.WriterOption {
	var opts []pq.WriterOption
	for _, path := range [][]string{
		{"outcomes", "list", "element", "policy"},
		{"outcomes", "list", "element", "outcome"},
		{"directives", "list", "element", "key"},
		{"agents", "list", "element", "value"},
		{"agents", "list", "element", "lower"},
		{"agents", "list", "element", "token"},
		{"agents", "list", "element", "raw"},
		{"robots", "list", "element", "robot"},
		{"robots", "list", "element", "state"},
		{"robots", "list", "element", "via"},
		{"robots", "list", "element", "line"},
		{"robots", "list", "element", "group"},
		{"robots", "list", "element", "crawl_delay"},
		{"robots", "list", "element", "ai_train"},
		{"agents", "list", "element", "line"},
		{"directives", "list", "element", "count"},
		{"lint", "list", "element"},
	} {
		opts = append(opts, pq.SkipPageBounds(path...), pq.SkipPageStatistics(path...))
	}
	return opts
}()

// set makes f the row r in the file, reusing f's slices. prev is the
// row written before, whose strings are valid: a string of r that is the
// string at the same place in prev (a robot's token, a state, a policy,
// the source, usually the same string, which Go compares by its pointer
// first) needs no check.
func (f *fileRow) set(r *scan.Row, prev *fileRow, lists *verdictLists) {
	f.URL = valid(r.URL)
	f.Host = valid(r.Host)
	f.Domain = valid(r.Domain)
	f.Time = r.Time
	f.Source = validAs(r.Source, prev.Source)
	f.Offset = r.Offset
	f.Status = int64(r.Status)
	f.RedirectTo = valid(r.RedirectTo)
	f.ContentType = validAs(r.ContentType, prev.ContentType)
	f.HTML = r.HTML
	f.Bytes = r.Bytes
	f.OverLimit = r.OverLimit
	f.Truncated = r.Truncated
	f.Revisit = r.Revisit
	f.Encoding = validAs(r.Encoding, prev.Encoding)
	f.BOM = r.BOM
	f.Outcomes = f.Outcomes[:0]
	for i, o := range r.Outcomes {
		var p fileOutcome
		if i < len(prev.Outcomes) {
			p = prev.Outcomes[i]
		}
		f.Outcomes = append(f.Outcomes, fileOutcome{Policy: validAs(o.Policy, p.Policy), Outcome: validAs(o.Outcome, p.Outcome)})
	}
	f.Directives = f.Directives[:0]
	for _, d := range r.Directives {
		f.Directives = append(f.Directives, fileKey{Key: valid(d.Key), Count: int64(d.Count)})
	}
	f.Groups = int64(r.Groups)
	f.Rules = int64(r.Rules)
	f.Sitemaps = int64(r.Sitemaps)
	f.Agents = f.Agents[:0]
	for _, a := range r.Agents {
		fa := fileAgent{Value: a.Value, Lower: valid(a.Lower), Token: valid(a.Token), Line: int64(a.Line)}
		if !utf8.ValidString(a.Value) {
			fa.Value = valid(a.Value)
			fa.Raw = []byte(a.Value)
		}
		f.Agents = append(f.Agents, fa)
	}
	f.ContentSignal = appendValidList(f.ContentSignal[:0], r.ContentSignal)
	f.ContentUsage = appendValidList(f.ContentUsage[:0], r.ContentUsage)
	f.License = appendValidList(f.License[:0], r.License)
	switch vs, ok := lists.get(r.Robots); {
	case ok:
		f.Robots = vs
	case lists == nil:
		f.Robots = f.Robots[:0]
		f.setRobots(r, prev)
	default:
		f.Robots = nil // f's list may be a kept one: never written over
		f.setRobots(r, prev)
		lists.put(r.Robots, f.Robots)
	}
	f.Lint = f.Lint[:0]
	for _, code := range r.Lint {
		f.Lint = append(f.Lint, valid(code))
	}
	f.LintTimeout = r.LintTimeout
}

// appendValidList appends the strings of list to dst, each valid UTF-8.
func appendValidList(dst, list []string) []string {
	for _, s := range list {
		dst = append(dst, valid(s))
	}
	return dst
}

// setRobots sets f's verdicts from r's.
func (f *fileRow) setRobots(r *scan.Row, prev *fileRow) {
	for i := range r.Robots {
		v := &r.Robots[i]
		var p *fileVerdict
		if i < len(prev.Robots) {
			p = &prev.Robots[i]
		} else {
			p = &fileVerdict{}
		}
		f.Robots = append(f.Robots, fileVerdict{
			Robot: validAs(v.Robot, p.Robot), State: validAs(v.State, p.State), Via: validAs(v.Via, p.Via),
			Line: int64(v.Line), Group: int64(v.Group), CrawlDelay: v.CrawlDelay, AITrain: validAs(v.AITrain, p.AITrain),
		})
	}
}

// verdictLists keeps the file form of the verdict lists of scan.Rows, by
// list: the rows of an Analyzer share their lists (every capture of one
// body, and most files give the robots one of a few lists), so each is
// converted once. A list is found by its address and taken only when its
// verdicts are those kept beside its file form, so that a caller that
// reuses a list for other verdicts gets them written. A nil
// *verdictLists keeps nothing.
type verdictLists struct {
	m map[*scan.Verdict]convertedList
}

type convertedList struct {
	list []scan.Verdict
	file []fileVerdict
}

// maxVerdictLists bounds a verdictLists.
const maxVerdictLists = 1024

func (l *verdictLists) get(vs []scan.Verdict) ([]fileVerdict, bool) {
	if l == nil || len(vs) == 0 {
		return nil, false
	}
	c, ok := l.m[&vs[0]]
	if !ok || !slices.Equal(c.list, vs) {
		return nil, false
	}
	return c.file, true
}

func (l *verdictLists) put(vs []scan.Verdict, file []fileVerdict) {
	if l == nil || len(vs) == 0 {
		return
	}
	if l.m == nil || len(l.m) >= maxVerdictLists {
		l.m = make(map[*scan.Verdict]convertedList)
	}
	l.m[&vs[0]] = convertedList{list: slices.Clone(vs), file: file}
}
