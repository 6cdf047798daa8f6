package lint

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/robotskit/robots/syntax"
)

// KnownFix reports whether name can enable Intent fixes in
// FixOptions.Enable: a fix ID of the catalogue ("FX25", FX01 to FX42), a
// check's code ("RB501") or name ("path-without-slash"), or "all". It
// compares ASCII case-insensitively.
func KnownFix(name string) bool {
	if name == "all" || Lookup(name) != nil {
		return true
	}
	for _, c := range Checks() {
		if strings.EqualFold(c.Fix, name) {
			return true
		}
	}
	id, ok := strings.CutPrefix(strings.ToUpper(name), "FX")
	k, err := strconv.Atoi(id)
	return ok && len(id) == 2 && err == nil && k >= 1 && k <= maxFixID
}

// maxFixID is the number of the last fix, FX42 (FX39, FX41 and FX42 fix
// usage lines; FX40 is reserved).
const maxFixID = 42

// An Unfixed is a finding that a corrected file still has, and why the
// fixer left it.
type Unfixed struct {
	Diagnostic
	// Why says in words why the fixer did not fix it.
	Why string
}

// Leftovers checks the corrected file res.Output with c and says, for
// each finding it still has, why Fix left it: the check has no automatic
// fix, its Intent fix was not enabled, or its fix was refused because it
// would change a verdict. Leftovers has no error to return: it ignores
// c.MaxWork.
func Leftovers(res *FixResult, c *Config) []Unfixed {
	var cfg Config
	if c != nil {
		cfg = *c
	}
	cfg.MaxWork = 0
	us, _ := LeftoversContext(context.Background(), res, &cfg)
	return us
}

// LeftoversContext is Leftovers that stops when ctx ends or when its
// check (RunContext) runs past c.MaxWork: it then returns nothing and
// ctx's error or ErrBudget.
func LeftoversContext(ctx context.Context, res *FixResult, c *Config) ([]Unfixed, error) {
	if res == nil {
		return nil, ctx.Err()
	}
	cfg := Config{}
	if c != nil {
		cfg = *c
	}
	cfg.Fetch = nil
	refused := map[string]*Refusal{}
	for i := range res.Refused {
		refused[res.Refused[i].Check.Code] = &res.Refused[i]
	}
	// The fixer's last findings were made whole, whatever their budget.
	ds, fcfg := res.findings, res.findingsCfg
	fcfg.MaxWork = cfg.MaxWork
	if ds == nil || !sameConfig(&fcfg, &cfg) {
		var err error
		if ds, err = RunContext(ctx, syntax.Parse("", res.Output), &cfg); err != nil {
			return nil, err
		}
	} else if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []Unfixed
	for _, d := range Fold(ds) {
		u := Unfixed{Diagnostic: d}
		switch r := refused[d.Check.Code]; {
		case d.Fix == nil:
			u.Why = "no automatic fix: what was meant is not clear; edit the line by hand"
		case r != nil && d.Fix.Class != Intent:
			u.Why = "fix " + d.Fix.ID + " refused: it would change what " + r.Difference.Agent + " decides for " + r.Difference.URL + " under " + r.Difference.Profile.String()
		case d.Fix.Class == Intent:
			u.Why = "fix " + d.Fix.ID + " not applied: it changes what some robots do; enable it (" + d.Fix.ID + " or " + d.Check.Code + ") to apply it"
		default:
			u.Why = "fix " + d.Fix.ID + " not applied: it overlaps another fix or needs another round"
		}
		out = append(out, u)
	}
	return out, nil
}

// sameConfig reports whether a and b check a file the same way.
func sameConfig(a, b *Config) bool {
	return a.Thorough == b.Thorough && a.AllRobots == b.AllRobots && a.URL == b.URL &&
		a.Fetch == b.Fetch && a.MaxWork == b.MaxWork && a.MaxReport == b.MaxReport &&
		slices.Equal(a.Enable, b.Enable) && slices.Equal(a.Disable, b.Disable)
}
