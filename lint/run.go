package lint

import (
	"context"

	"github.com/robotskit/robots/internal/textedit"
	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/syntax"
)

// Run checks f and returns what it finds, sorted by line, column and code:
// one diagnostic for each place, which Fold makes one for each problem.
// c may be nil for the zero Config. Run never fails; a file that is not a
// robots.txt at all (HTML, binary) gets the diagnostics that say so and
// none of the line checks. Unless c.AllRobots is set, Run keeps only the
// diagnostics that affect a major family (Family.Major). Run has no
// error to return: it ignores c.MaxWork.
func Run(f *syntax.File, c *Config) []Diagnostic {
	var cfg Config
	if c != nil {
		cfg = *c
	}
	cfg.MaxWork = 0
	ds, _, _ := runChecks(context.Background(), f, &cfg)
	return ds
}

// RunContext is Run that stops when ctx ends or when its work runs past
// c.MaxWork: it looks at ctx between checks, every few thousand units of
// work in the checks whose cost grows faster than the file (those that
// compare each rule with the others, or prove a fix with change.Prover),
// and in the prover's probe loop. When ctx ends it returns no diagnostics
// and ctx's error; when the work runs past c.MaxWork, no diagnostics and
// ErrBudget; when c.Enable or c.Disable names no check (Validate), no
// diagnostics and that error; otherwise what Run returns and nil.
func RunContext(ctx context.Context, f *syntax.File, c *Config) ([]Diagnostic, error) {
	ds, _, err := run(ctx, f, c)
	return ds, err
}

// run is RunContext, and the units of work the checks charged (all of
// them, those past the budget included).
func run(ctx context.Context, f *syntax.File, c *Config) ([]Diagnostic, int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	var cfg Config
	if c != nil {
		cfg = *c
	}
	if err := cfg.Validate(); err != nil {
		return nil, 0, err
	}
	ds, work, err := runChecks(ctx, f, &cfg)
	return ds, work, err
}

// runChecks is run with a Config whose selection may name nothing.
func runChecks(ctx context.Context, f *syntax.File, cfg *Config) ([]Diagnostic, int64, error) {
	p := check.NewPass(ctx, f, cfg.URL, cfg.Fetch.checked())
	p.SetBudget(max(cfg.MaxWork, 0))
	// The checks that run, and those named in Enable, whose findings are
	// reported whatever the scope.
	sc := scope{all: cfg.AllRobots}
	var run, meta []*Check
	for _, ch := range Checks() {
		on, forced := selected(cfg, ch)
		switch {
		case !on || ch.impl == nil:
			continue
		case p.SkipContent() && ch.Section() > 'B':
			continue
		case ch.impl.Meta:
			meta = append(meta, ch)
			continue
		case forced:
			if sc.force == nil {
				sc.force = map[*check.Check]bool{}
			}
			sc.force[ch.impl] = true
		case !cfg.AllRobots && !anyMajor(ch.Affects):
			// A diagnostic affects some of its check's families at most.
			continue
		}
		run = append(run, ch)
	}
	judged := map[string]bool{}
	for _, ch := range run {
		judged[ch.Code] = true
	}
	p.SetIgnoreLookup(func(s string) string {
		if c := Lookup(s); c != nil {
			return c.Code
		}
		return ""
	}, func(code string) bool { return judged[code] })
	var size *reportSize
	if cfg.MaxReport > 0 {
		size = &reportSize{scope: sc, seen: map[foldKey]int{}}
	}
	for _, ch := range append(run, meta...) {
		if err := p.Run(ch.impl); err != nil {
			return nil, p.Work(), err
		}
		if err := ctx.Err(); err != nil {
			return nil, p.Work(), err
		}
		if size != nil && size.add(p.Diagnostics()) > cfg.MaxReport {
			return nil, p.Work(), ErrReport
		}
	}
	ds := diagnostics(p.Diagnostics(), sc)
	sortDiagnostics(ds)
	return ds, p.Work(), nil
}

// A foldKey is what Fold folds by: the diagnostics of one check in one
// group with the same fix and families are one problem.
type foldKey struct {
	code     string
	group    int
	fix      string
	families string
}

// reportSize adds up Config.MaxReport's lower bound of a report's size,
// over the findings of a pass as they come.
type reportSize struct {
	scope scope
	seen  map[foldKey]int // the shortest message of each problem
	n     int             // findings counted
	size  int64           // the bound so far
}

// add counts the findings of ds past those counted before, and returns
// the bound so far.
func (r *reportSize) add(ds []*check.Diagnostic) int64 {
	checks := registry().byImpl
	for _, d := range ds[r.n:] {
		if !r.scope.keeps(d) {
			continue
		}
		c := checks[d.Check]
		if d.Line > 0 {
			k := foldKey{code: c.Code, group: d.Group}
			if d.Fix.ID != "" {
				k.fix = d.Fix.ID + " " + classOf(d.Fix.Class).String()
			}
			for _, f := range d.Affects {
				k.families += string(f) + " "
			}
			if m, ok := r.seen[k]; ok {
				// The folded problem keeps one place's message, which may
				// be the shortest of them.
				r.size += 2 // a line number and a comma, at least
				if len(d.Message) < m {
					r.size -= int64(m - len(d.Message))
					r.seen[k] = len(d.Message)
				}
				continue
			}
			r.seen[k] = len(d.Message)
		}
		r.size += recordSize(c, d.Message, d.Families())
	}
	r.n = len(ds)
	return r.size
}

// recordSkeleton is what every record of the JSON report holds besides
// its texts (docs/schema/check.schema.json), with one-digit numbers, and
// the comma between records.
const recordSkeleton = `{"code":"","name":"","severity":"","line":0,"column":0,"message":"","affects":[],"explanation":""},`

// recordSize is the least a record of the JSON report takes for a
// problem of check c with this message and these families: its skeleton
// and texts, unescaped (escapes only add).
func recordSize[F ~string](c *Check, msg string, fams []F) int64 {
	n := len(recordSkeleton) + len(c.Severity.String()) + len(c.Code) + len(c.Name) + len(c.Doc) + len(msg)
	for i, f := range fams {
		n += len(f) + 2 // "GOOG"
		if i > 0 {
			n++ // ,
		}
	}
	return int64(n)
}

// diagnostics returns the findings ds of a pass as diagnostics, in order:
// those that affect a major family, or all of them when all is set. The
// fixes, edits, related lines and families of all are made in one array
// each, and findings that share their edits (a fix that merges or
// reorders many groups, reported at each) share them still.
func diagnostics(ds []*check.Diagnostic, sc scope) []Diagnostic {
	// shared holds the edits of more than one edit, by their array, which
	// several findings may share.
	type array struct {
		first *check.Edit
		n     int
	}
	var shared map[array][]Edit
	n, nfix, nedit, nrel, nfam := 0, 0, 0, 0, 0
	for _, d := range ds {
		if !sc.keeps(d) {
			continue
		}
		n++
		if d.Fix.ID != "" {
			nfix++
			es := d.Fix.Edits
			if len(es) > 1 {
				if shared == nil {
					shared = map[array][]Edit{}
				}
				a := array{&es[0], len(es)}
				if _, ok := shared[a]; ok {
					es = nil // counted already
				}
				shared[a] = nil
			}
			nedit += len(es)
		}
		nrel += len(d.Related)
		nfam += len(d.Affects)
	}
	out := make([]Diagnostic, 0, n)
	fixes := make([]SuggestedFix, nfix)
	edits := make([]Edit, nedit)
	related := make([]Related, nrel)
	fams := make([]Family, nfam)
	checks := registry().byImpl
	for _, d := range ds {
		if !sc.keeps(d) {
			continue
		}
		pd := Diagnostic{
			Check:   checks[d.Check],
			Line:    d.Line,
			Column:  d.Column,
			Offset:  d.Offset,
			Message: d.Message,
			group:   d.Group,
		}
		if d.Related != nil {
			k := len(d.Related)
			pd.Related, related = related[:k:k], related[k:]
			for i, r := range d.Related {
				pd.Related[i] = Related(r)
			}
		}
		if d.Affects != nil {
			k := len(d.Affects)
			pd.Affects, fams = fams[:k:k], fams[k:]
			for i, f := range d.Affects {
				pd.Affects[i] = Family(f)
			}
		}
		if d.Fix.ID != "" {
			fx := &fixes[0]
			fixes = fixes[1:]
			*fx = SuggestedFix{ID: d.Fix.ID, Class: classOf(d.Fix.Class), Message: d.Fix.Message}
			if es := d.Fix.Edits; es != nil {
				var a array
				if len(es) > 1 {
					a = array{&es[0], len(es)}
					fx.Edits = shared[a]
				}
				if fx.Edits == nil {
					k := len(es)
					fx.Edits, edits = edits[:k:k], edits[k:]
					for i, e := range es {
						fx.Edits[i] = Edit(e)
					}
					if len(es) > 1 {
						shared[a] = fx.Edits
					}
				}
			}
			pd.Fix = fx
		}
		out = append(out, pd)
	}
	return out
}

// Fold returns the diagnostics of ds, as Run returned them, with one
// diagnostic for each problem: the diagnostics of one check in one group
// that have the same families and the same kind of fix become the first
// of them, with the lines of all (Diagnostic.Lines) and the edits of all.
// A group is a User-agent group and the lines that follow it up to the
// next; the lines before the first User-agent line are one group too.
// Diagnostics of the whole file or its fetch stay apart: each says
// something different and has no line to list. ds is not modified.
//
// Fix works on what Run returns, so that it can refuse the edit of one
// place and apply the others.
func Fold(ds []Diagnostic) []Diagnostic {
	type key struct {
		code     string
		group    int
		fix      string
		families string
	}
	first := map[key]int{} // index in out
	out := make([]Diagnostic, 0, len(ds))
	for _, d := range ds {
		if d.Line <= 0 {
			out = append(out, d)
			continue
		}
		k := key{code: d.Check.Code, group: d.group}
		if d.Fix != nil {
			k.fix = d.Fix.ID + " " + d.Fix.Class.String()
		}
		for _, f := range d.Affects {
			k.families += string(f) + " "
		}
		i, ok := first[k]
		if !ok {
			first[k] = len(out)
			out = append(out, d)
			continue
		}
		out[i].absorb(&d)
	}
	for i := range out {
		if len(out[i].Lines) == 1 {
			out[i].Lines = nil // several findings on one line
		}
	}
	return out
}

// absorb adds the place of o, a later diagnostic of the same check in the
// same group, to d: its line, and the edits of its fix. When one of o's
// edits would touch bytes that an edit of d touches differently, none of
// o's edits is added (as Fix would apply them in a later round).
func (d *Diagnostic) absorb(o *Diagnostic) {
	if d.Lines == nil {
		d.Lines = []int{d.Line}
		if d.Fix != nil {
			fx := *d.Fix
			fx.Edits = append([]Edit(nil), fx.Edits...)
			d.Fix = &fx
		}
	}
	if d.Lines[len(d.Lines)-1] != o.Line {
		d.Lines = append(d.Lines, o.Line)
	}
	if d.Fix == nil || o.Fix == nil {
		return
	}
	var add []Edit
	for _, e := range o.Fix.Edits {
		dup := false
		for _, t := range d.Fix.Edits {
			if e == t {
				dup = true
				break
			}
			if editsConflict(e, t) {
				return
			}
		}
		if !dup {
			add = append(add, e)
		}
	}
	d.Fix.Edits = append(d.Fix.Edits, add...)
}

// editsConflict reports whether a and b cannot both apply: they touch the
// same bytes, or start at one offset where one of them replaces text (as
// Fix decides which fixes fit together).
func editsConflict(a, b Edit) bool {
	return textedit.Overlap(textedit.Edit(a), textedit.Edit(b)) || a.Start == b.Start && (a.Start != a.End || b.Start != b.End)
}
