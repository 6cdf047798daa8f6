package lint

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/syntax"
)

// costlyFiles are files of about size octets on which some checks or the
// fixer's proofs cost far more than their size: rules that each compare
// with all the others (trailing stars in one large group), thousands of
// wildcard rules, thousands of agents, misspellings whose fixes are
// proved with Equivalent, long wildcard values whose crossings the proofs
// probe.
func costlyFiles(size int) map[string]string {
	fill := func(head string, line func(i int) string) string {
		var b strings.Builder
		b.WriteString(head)
		for i := 0; b.Len() < size; i++ {
			b.WriteString(line(i))
		}
		return b.String()
	}
	return map[string]string{
		"trailing-stars": fill("", func(i int) string {
			return []string{"User-agent: *\n", fmt.Sprintf("Disallow: /a%d/*\n", i), fmt.Sprintf("Allow: /a%d/b*$\n", i),
				fmt.Sprintf("Disallow: /*.php?%d*\n", i), fmt.Sprintf("Disallow: a%d\n", i)}[i%5]
		}),
		"wildcards": fill("User-agent: *\n", func(i int) string { return fmt.Sprintf("Disallow: /*%x*q\n", i) }),
		"agents":    fill("", func(i int) string { return fmt.Sprintf("User-agent: bot%d\nDisallow: /a%d\n", i, i) }),
		"long-wildcards": fill("User-agent: *\n", func(i int) string {
			return "Disallow: /" + strings.Repeat("a*", 2000) + fmt.Sprint(i) + "\n"
		}),
		"typos": fill("User-agent: *\n", func(i int) string {
			return fmt.Sprintf([]string{"Disalow: /x%d\n", "Dissallow: /y%d\n", "Disallow /z%d\n", "Allow: q%d\n", "User-agent: b%d\n"}[i%5], i)
		}),
	}
}

// pollCtx is a context that ends at its at-th look (Err), never when at is
// 0, and counts the looks: where a function looks at its context depends
// only on its input, so it ends at the same point of the work at every
// run, however loaded the machine.
type pollCtx struct {
	context.Context
	polls, at int
	done      chan struct{}
}

func newPollCtx(at int) *pollCtx {
	return &pollCtx{Context: context.Background(), at: at, done: make(chan struct{})}
}

func (c *pollCtx) Err() error {
	c.polls++
	if c.at > 0 && c.polls >= c.at {
		if c.polls == c.at {
			close(c.done)
		}
		return context.Canceled
	}
	return nil
}

func (c *pollCtx) Done() <-chan struct{} { return c.done }

// TestContextStops: on files whose check costs far more than their size,
// RunContext, FixContext, LeftoversContext, DiffContext and
// EquivalentContext stop with ctx's error when ctx ends half-way through
// their work, and RunContext, FixContext and LeftoversContext stop with
// ErrBudget soon after their work runs past Config.MaxWork; the
// functions without a context return the same as with
// context.Background (TestContextSame). No clock is read: a loaded
// machine makes any bound on the time after a deadline lie. Where the
// functions stop is counted instead, in looks at ctx (pollCtx) and in
// units of work.
func TestContextStops(t *testing.T) {
	if testing.Short() {
		t.Skip("costly inputs")
	}
	cfg := &Config{AllRobots: true, Thorough: true}
	steps := []struct {
		step string
		run  func(ctx context.Context, src string, cfg *Config) error
	}{
		{"RunContext", func(ctx context.Context, src string, cfg *Config) error {
			_, err := RunContext(ctx, syntax.Parse("", []byte(src)), cfg)
			return err
		}},
		{"FixContext", func(ctx context.Context, src string, cfg *Config) error {
			_, err := FixContext(ctx, []byte(src), &FixOptions{Config: *cfg, Enable: []string{"all"}})
			return err
		}},
		{"LeftoversContext", func(ctx context.Context, src string, cfg *Config) error {
			_, err := LeftoversContext(ctx, &FixResult{Output: []byte(src)}, cfg)
			return err
		}},
		{"DiffContext", func(ctx context.Context, src string, _ *Config) error {
			_, err := change.CompareContext(ctx, []byte(src), []byte(strings.ReplaceAll(src, "Disallow", "Allow")), &change.Options{All: true})
			return err
		}},
		{"EquivalentContext", func(ctx context.Context, src string, _ *Config) error {
			_, err := change.EquivalentContext(ctx, []byte(src), []byte(src+"Disallow: /zz\n"))
			return err
		}},
	}
	// ctx ends half-way through the looks of a whole run; the function
	// returns within a few more looks.
	for name, src := range costlyFiles(32 << 10) {
		for _, s := range steps {
			whole := newPollCtx(0)
			if err := s.run(whole, src, cfg); err != nil {
				t.Fatalf("%s %s: %v", name, s.step, err)
			}
			half := newPollCtx(max(1, whole.polls/2))
			if err := s.run(half, src, cfg); !errors.Is(err, context.Canceled) {
				t.Errorf("%s %s: %v when ctx ends at look %d of %d, want its error", name, s.step, err, half.at, whole.polls)
			}
			if half.polls > half.at+16 {
				t.Errorf("%s %s: %d looks at ctx after it ended", name, s.step, half.polls-half.at)
			}
		}
	}
	// The work runs past the budget: the checks give up within a few
	// steps (a proof's texts at most, some 32 units a byte).
	const budget = 2_000_000
	for name, src := range costlyFiles(600 << 10) {
		bounded := *cfg
		bounded.MaxWork = budget
		for _, s := range steps[:3] {
			if err := s.run(context.Background(), src, &bounded); !errors.Is(err, ErrBudget) {
				t.Errorf("%s %s: %v, want ErrBudget", name, s.step, err)
			}
		}
		_, work, err := run(context.Background(), syntax.Parse("", []byte(src)), &bounded)
		if slack := int64(32*len(src)) + 100_000; !errors.Is(err, ErrBudget) || work > budget+slack {
			t.Errorf("%s: %d units of work for a budget of %d: %v", name, work, budget, err)
		}
	}
	// An ended context stops everything before any work.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := RunContext(ctx, syntax.Parse("", []byte("User-agent: *\n")), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("RunContext on a cancelled context: %v", err)
	}
	if _, err := FixContext(ctx, []byte("User-agent: *\n"), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("FixContext on a cancelled context: %v", err)
	}
}

// TestContextSame: with a context that does not end, the Context
// functions return what the functions without one return.
func TestContextSame(t *testing.T) {
	src := []byte("User-agent: *\nDisalow: /tmp\nDisallow: admin/\nDisallow: /a/*\n\nUser-agent: GPTBot\nDisallow: /\n")
	cfg := &Config{AllRobots: true, Thorough: true}
	ctx := context.Background()
	ds, err := RunContext(ctx, syntax.Parse("", src), cfg)
	if err != nil || shown(ds) != shown(Run(syntax.Parse("", src), cfg)) {
		t.Errorf("RunContext differs from Run: %v", err)
	}
	opt := &FixOptions{Config: *cfg, Enable: []string{"all"}}
	fr, err := FixContext(ctx, src, opt)
	want := Fix(src, opt)
	if err != nil || string(fr.Output) != string(want.Output) || len(fr.Applied) != len(want.Applied) {
		t.Errorf("FixContext differs from Fix: %v\n%s\n%s", err, fr.Output, want.Output)
	}
	us, err := LeftoversContext(ctx, fr, cfg)
	var a, b []Diagnostic
	for _, u := range us {
		a = append(a, u.Diagnostic)
	}
	for _, u := range Leftovers(want, cfg) {
		b = append(b, u.Diagnostic)
	}
	if err != nil || len(us) == 0 || shown(a) != shown(b) {
		t.Errorf("LeftoversContext differs from Leftovers: %v", err)
	}
	rep, err := change.CompareContext(ctx, src, fr.Output, nil)
	if err != nil || fmt.Sprint(rep) != fmt.Sprint(change.Compare(src, fr.Output, nil)) {
		t.Errorf("DiffContext differs from Diff: %v", err)
	}
}

// shown is what ds say: code, place, message and fix of each.
func shown(ds []Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s %d:%d %s", d.Check.Code, d.Line, d.Column, d.Message)
		if d.Fix != nil {
			fmt.Fprintf(&b, " %s %v %v", d.Fix.ID, d.Fix.Class, d.Fix.Edits)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
