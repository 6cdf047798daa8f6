package lint

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robotskit/robots/syntax"
)

// workFiles are files of every kind of cost, for the tests of the work
// budget: light ones, the catalogue's examples, and the costly files at a
// size that keeps the tests quick.
func workFiles() map[string]string {
	files := map[string]string{
		"empty": "",
		"small": string(small()),
		"typical": "User-agent: *\nDisallow: /search\nAllow: /search/about\nDisalow: /tmp\n\n" +
			"User-agent: GPTBot\nDisallow: /\n\nSitemap: https://example.com/sitemap.xml\n",
	}
	for _, c := range Checks() {
		if c.Before != "" {
			files["before-"+c.Code] = c.Before
		}
	}
	for name, src := range costlyFiles(4 << 10) {
		files["costly-"+name] = src
	}
	return files
}

// workConfigs are the configurations the work tests check under: scan's
// (a fetched file, the default checks) and every check for every robot.
var workConfigs = []struct {
	name string
	cfg  Config
}{
	{"fetched", Config{URL: "https://example.com/robots.txt", Fetch: &Fetch{
		Hops: []Hop{{URL: "https://example.com/robots.txt", Status: 200}}, ContentType: "text/plain"}}},
	{"thorough", Config{Thorough: true, AllRobots: true}},
}

// outcome is what a check of a file gave: its findings, or its error,
// and the work it charged.
func outcome(ctx context.Context, src string, cfg *Config) (string, int64) {
	ds, work, err := run(ctx, syntax.Parse("", []byte(src)), cfg)
	if err != nil {
		return "error: " + err.Error(), work
	}
	return shown(ds), work
}

// TestWorkDeterministic: a file's work, and so its outcome under any
// budget, is the same at every run, with or without a deadline that never
// comes; a budget of exactly its work lets it through with the findings
// of an unbounded run, one unit less stops it with ErrBudget.
func TestWorkDeterministic(t *testing.T) {
	files := workFiles()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, wc := range workConfigs {
		for _, name := range names {
			src := files[name]
			cfg := wc.cfg
			want, work := outcome(context.Background(), src, &cfg)
			if work <= 0 || strings.HasPrefix(want, "error:") {
				t.Fatalf("%s %s: work %d, %s", wc.name, name, work, want)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
			for _, budget := range []int64{work, work - 1, work / 2} {
				cfg.MaxWork = budget
				first, firstWork := outcome(context.Background(), src, &cfg)
				switch {
				case budget >= work:
					if first != want || firstWork != work {
						t.Errorf("%s %s with MaxWork %d (its work): %d units, findings differ:\n%s\nwant %d units:\n%s", wc.name, name, budget, firstWork, first, work, want)
					}
				case first != "error: "+ErrBudget.Error():
					t.Errorf("%s %s with MaxWork %d < %d: %.80q, want ErrBudget", wc.name, name, budget, work, first)
				}
				for i, c := range []context.Context{context.Background(), ctx} { // ctx: a deadline that does not come
					if got, gotWork := outcome(c, src, &cfg); got != first || gotWork != firstWork {
						t.Errorf("%s %s with MaxWork %d, run %d: %d units, %.80q; first run: %d units, %.80q", wc.name, name, budget, i+2, gotWork, got, firstWork, first)
					}
				}
			}
			cancel()
		}
	}
}

// TestWorkBudget: a small budget stops the check of a costly file with
// ErrBudget, in RunContext, FixContext and LeftoversContext, and lets a
// light file through; Run, Fix and Leftovers ignore the budget.
func TestWorkBudget(t *testing.T) {
	heavy := costlyFiles(64 << 10)
	light := workFiles()["typical"]
	cases := []struct {
		name    string
		src     string
		budget  int64
		wantErr bool
	}{
		{"light", light, 1_000_000, false},
		{"light, tight", light, 100_000, false},
		{"light, no room", light, 1_000, true},
		{"trailing-stars", heavy["trailing-stars"], 1_000_000, true},
		{"wildcards", heavy["wildcards"], 1_000_000, true},
		{"agents", heavy["agents"], 1_000_000, true},
		{"long-wildcards", heavy["long-wildcards"], 100_000, true},
		{"typos", heavy["typos"], 1_000_000, true},
		{"no bound", heavy["typos"], 0, false},
	}
	for _, c := range cases {
		cfg := Config{Thorough: true, AllRobots: true, MaxWork: c.budget}
		ds, work, err := run(context.Background(), syntax.Parse("", []byte(c.src)), &cfg)
		if c.wantErr {
			if !errors.Is(err, ErrBudget) || ds != nil {
				t.Errorf("%s: %d findings, %v; want ErrBudget", c.name, len(ds), err)
			}
			// The checks give up soon after the budget runs out: what
			// they charge past it is a few steps, and a proof's texts.
			if slack := int64(len(c.src))*2*16 + 1_000_000; work > c.budget+slack {
				t.Errorf("%s: %d units charged for a budget of %d", c.name, work, c.budget)
			}
		} else if err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if got := Run(syntax.Parse("", []byte(c.src)), &cfg); len(got) == 0 && c.src != "" {
			t.Errorf("%s: Run found nothing under MaxWork %d", c.name, c.budget)
		}
		if !c.wantErr {
			continue
		}
		opt := &FixOptions{Config: cfg, Enable: []string{"all"}}
		if res, err := FixContext(context.Background(), []byte(c.src), opt); !errors.Is(err, ErrBudget) || res != nil {
			t.Errorf("%s: FixContext: %v", c.name, err)
		}
		if us, err := LeftoversContext(context.Background(), &FixResult{Output: []byte(c.src)}, &cfg); !errors.Is(err, ErrBudget) || us != nil {
			t.Errorf("%s: LeftoversContext: %v", c.name, err)
		}
	}
	// Fix and Leftovers have no error to return: they ignore the budget.
	src := []byte(workFiles()["typical"])
	bounded := &FixOptions{Config: Config{MaxWork: 1}, Enable: []string{"all"}}
	res, want := Fix(src, bounded), Fix(src, &FixOptions{Enable: []string{"all"}})
	if res == nil || string(res.Output) != string(want.Output) {
		t.Fatalf("Fix under MaxWork 1: %v", res)
	}
	if got := Leftovers(res, &bounded.Config); len(got) != len(Leftovers(want, nil)) {
		t.Errorf("Leftovers under MaxWork 1: %d findings", len(got))
	}
}

// checkCorpusWork checks the files of the -corpus folder as a crawl does
// (scan's options: a fetched file, the default checks), for TestCorpus:
// every file fits in DefaultMaxWork, twice over, and costs the same work
// at a second run. It logs the distribution of the work per file.
func checkCorpusWork(t *testing.T, names []string, srcs [][]byte) {
	type cost struct {
		name string
		size int
		work int64
	}
	costs := make([]cost, len(names))
	for i, name := range names {
		u := "https://" + name + "/robots.txt"
		cfg := &Config{URL: u, Fetch: &Fetch{Hops: []Hop{{URL: u, Status: 200}}, ContentType: "text/plain", Size: int64(len(srcs[i]))}}
		ds, work, err := run(context.Background(), syntax.Parse(name, srcs[i]), cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, again, _ := run(context.Background(), syntax.Parse(name, srcs[i]), cfg); again != work {
			t.Errorf("%s: %d units, then %d", name, work, again)
		}
		if work > DefaultMaxWork/2 {
			t.Errorf("%s: %d units (%d findings), over half of DefaultMaxWork", name, work, len(ds))
		}
		costs[i] = cost{name, len(srcs[i]), work}
	}
	slices.SortFunc(costs, func(a, b cost) int { return int(a.work - b.work) })
	at := func(q float64) int64 { return costs[min(len(costs)-1, int(q*float64(len(costs))))].work }
	t.Logf("%d files; units of work per file: p50 %d, p90 %d, p99 %d, p99.9 %d, max %d", len(costs), at(0.5), at(0.9), at(0.99), at(0.999), costs[len(costs)-1].work)
	var top []string
	for _, c := range costs[max(0, len(costs)-8):] {
		top = append(top, fmt.Sprintf("%s (%d bytes) %d", c.name, c.size, c.work))
	}
	t.Logf("costliest: %s", strings.Join(top, "; "))
}
