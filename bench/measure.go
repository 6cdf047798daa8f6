package main

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"time"
)

// config sets what measure runs and how long.
type config struct {
	rounds    int           // timed rounds; each runs every workload once per implementation
	minSample time.Duration // a sample repeats its workload's pass until at least this long
	// grobStride subsamples grobotstxt's checks (every grobStride-th query),
	// since it re-parses the whole body on each check.
	grobStride int
	agent      string    // product token with groups in many files
	rareAgent  string    // product token with no group anywhere, hence falls back to *
	progress   io.Writer // if not nil, receives a line per round
}

// defaultConfig returns the settings of a default run.
func defaultConfig() config {
	return config{
		rounds:     5,
		minSample:  500 * time.Millisecond,
		grobStride: 17,
		agent:      "Googlebot",
		rareAgent:  "ExampleRareBot",
	}
}

// row is one line of the results table.
type row struct {
	label string
	value map[string]float64 // per implementation; absent = not measured
	// ratio is the median per-round factor by which an implementation beats
	// temoto (>1 = better); absent = not applicable.
	ratio  map[string]float64
	format func(float64) string
}

// results is everything measure found, ready for writeTable.
type results struct {
	impls []string
	rows  []row
	notes []string
}

// Row labels, in table order.
const (
	rowParseMB    = "parse MB/s"
	rowParseFiles = "parse files/s"
	rowCheck      = "check/s Googlebot (parsed)"
	rowCheckRare  = "check/s rare agent -> *"
	rowOneshot    = "oneshot parse+1 check /s"
	rowAllocs     = "allocs per check"
	rowAllocBytes = "alloc bytes per check"
	rowRetained   = "retained heap / input bytes"
	rowAllowed    = "allowed % Googlebot"
)

// workload is one timed workload: pass runs it once over the corpus for one
// implementation and returns how many operations it did.
type workload struct {
	name string
	pass func(e engine, ch checker) (ops int)
}

// measure runs every workload for every engine, cfg.rounds times in rotating
// order, and summarizes the medians. A panic in an implementation is
// returned as an error.
func measure(c *corpus, engs []engine, cfg config) (res *results, err error) {
	stage := "setup"
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("panic during %s: %v", stage, p)
		}
	}()
	if cfg.rounds < 1 {
		return nil, fmt.Errorf("rounds must be at least 1, got %d", cfg.rounds)
	}
	if cfg.grobStride < 1 {
		cfg.grobStride = 1
	}

	checkers := make(map[string]checker, len(engs))
	for _, e := range engs {
		stage = e.name + " prepare"
		stride := 1
		if e.name == nameGrobots {
			stride = cfg.grobStride
		}
		checkers[e.name] = e.prepare(c, stride)
	}

	rejected := map[string]int{}
	workloads := []workload{
		{rowParseMB, func(e engine, _ checker) int {
			rejected[e.name] = e.parse(c)
			return len(c.hosts)
		}},
		{rowCheck, func(_ engine, ch checker) int {
			n, _ := ch.run(cfg.agent)
			return n
		}},
		{rowCheckRare, func(_ engine, ch checker) int {
			n, _ := ch.run(cfg.rareAgent)
			return n
		}},
		{rowOneshot, func(e engine, _ checker) int {
			e.oneshot(c, cfg.agent)
			return len(c.hosts)
		}},
	}

	// rates[workload][impl][round] in operations per second.
	rates := make(map[string]map[string][]float64)
	for _, w := range workloads {
		rates[w.name] = make(map[string][]float64)
	}
	for r := 0; r < cfg.rounds; r++ {
		if cfg.progress != nil {
			fmt.Fprintf(cfg.progress, "bench: round %d/%d\n", r+1, cfg.rounds)
		}
		order := rotate(engs, r)
		for _, w := range workloads {
			for _, e := range order {
				stage = fmt.Sprintf("%s %s round %d", e.name, w.name, r+1)
				ops, d := sample(cfg.minSample, func() int { return w.pass(e, checkers[e.name]) })
				rates[w.name][e.name] = append(rates[w.name][e.name], float64(ops)/d.Seconds())
			}
		}
	}

	res = &results{}
	for _, e := range engs {
		res.impls = append(res.impls, e.name)
	}
	mb := float64(c.bytes) / float64(len(c.hosts)) / 1e6 // MB per file
	parse := summarize(rowParseMB, rates[rowParseMB], false, fmtFixed(1))
	for k, v := range parse.value {
		parse.value[k] = v * mb
	}
	res.rows = append(res.rows,
		parse,
		summarize(rowParseFiles, rates[rowParseMB], false, fmtSI),
		summarize(rowCheck, rates[rowCheck], false, fmtSI),
		summarize(rowCheckRare, rates[rowCheckRare], false, fmtSI),
		summarize(rowOneshot, rates[rowOneshot], false, fmtSI),
	)

	// Allocations per check, one untimed pass each; it also gives the
	// allowed share.
	allocs := map[string][]float64{}
	allocBytes := map[string][]float64{}
	allowedPct := map[string]float64{}
	checked := map[string]int{}
	for _, e := range engs {
		stage = e.name + " allocs"
		var n, allowed int
		m, b := allocsPer(func() int { n, allowed = checkers[e.name].run(cfg.agent); return n })
		// Round to the displayed precision, so that a stray runtime
		// allocation over the whole pass does not make a huge ratio.
		allocs[e.name] = []float64{math.Round(m*100) / 100}
		allocBytes[e.name] = []float64{math.Round(b)}
		checked[e.name] = n
		if n > 0 {
			allowedPct[e.name] = 100 * float64(allowed) / float64(n)
		}
	}
	res.rows = append(res.rows,
		summarize(rowAllocs, allocs, true, fmtFixed(2)),
		summarize(rowAllocBytes, allocBytes, true, fmtFixed(0)),
	)

	retained := map[string][]float64{}
	for _, e := range engs {
		stage = e.name + " retained heap"
		retained[e.name] = []float64{retainedPerByte(c, e)}
	}
	res.rows = append(res.rows,
		summarize(rowRetained, retained, true, fmtFixed(2)),
		row{label: rowAllowed, value: allowedPct, format: fmtFixed(1)},
	)

	stage = "sanity checks"
	res.notes = notes(c, engs, cfg, checkers, rejected, checked)
	return res, nil
}

// rotate returns engs rotated left by r, so that each implementation takes
// every position in turn across rounds.
func rotate(engs []engine, r int) []engine {
	k := r % len(engs)
	return append(slices.Clone(engs[k:]), engs[:k]...)
}

// sample runs pass after a forced GC, repeatedly until min has elapsed (at
// least once), and returns the total operations and the elapsed time.
func sample(min time.Duration, pass func() int) (ops int, d time.Duration) {
	runtime.GC()
	start := time.Now()
	for {
		ops += pass()
		if d = time.Since(start); d >= min {
			return ops, max(d, time.Nanosecond)
		}
	}
}

// allocsPer runs f once and returns the heap allocations and allocated bytes
// per operation, f returning the number of operations.
func allocsPer(f func() int) (allocs, bytes float64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	n := f()
	runtime.ReadMemStats(&after)
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	return float64(after.Mallocs-before.Mallocs) / float64(n),
		float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
}

// retainedPerByte parses the whole corpus with e, keeping every result
// alive, and returns the live heap growth per input byte.
func retainedPerByte(c *corpus, e engine) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	keep := e.retain(c)
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(keep)
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	return float64(max(grown, 0)) / float64(c.bytes)
}

// summarize turns per-round figures into a row: the median of each
// implementation's figures, and the median of its per-round ratios against
// temoto, inverted when lower figures are better so that >1 always means
// better than temoto.
func summarize(label string, perRound map[string][]float64, lowerBetter bool, format func(float64) string) row {
	rw := row{label: label, value: map[string]float64{}, ratio: map[string]float64{}, format: format}
	base, haveBase := perRound[nameTemoto]
	for name, xs := range perRound {
		rw.value[name] = median(xs)
		if !haveBase || name == nameTemoto {
			continue
		}
		ratios := make([]float64, 0, len(xs))
		for i, x := range xs {
			switch {
			case x == base[i]:
				ratios = append(ratios, 1) // also 0 == 0
			case lowerBetter:
				ratios = append(ratios, base[i]/x)
			default:
				ratios = append(ratios, x/base[i])
			}
		}
		rw.ratio[name] = median(ratios)
	}
	return rw
}

// median returns the median of xs, NaN for none. NaNs sort first.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// notes returns the footnotes: what was sampled, what temoto rejected, and
// how often each implementation agrees with grobotstxt, Google's reference
// matcher ported to Go.
func notes(c *corpus, engs []engine, cfg config, checkers map[string]checker,
	rejected, checked map[string]int) []string {
	var out []string
	out = append(out, fmt.Sprintf(
		"corpus: %d files, %.2f MB, %d (host, URL) queries; rounds: %d, each sample repeating its pass for >= %v; "+
			"figures are medians over rounds, ratios the median of per-round ratios (>1 = better than temoto).",
		len(c.hosts), float64(c.bytes)/1e6, len(c.queries), cfg.rounds, cfg.minSample))
	if c.unknownURLs > 0 {
		out = append(out, fmt.Sprintf("%d URLs of hosts without a robots.txt file were ignored.", c.unknownURLs))
	}
	has := func(name string) bool {
		return slices.ContainsFunc(engs, func(e engine) bool { return e.name == name })
	}
	if has(nameTemoto) {
		out = append(out, fmt.Sprintf(
			"temoto rejected %d of %d files (FromBytes error); their queries (%d of %d) are skipped in its check rows and allowed %%.",
			rejected[nameTemoto], len(c.hosts), len(c.queries)-checked[nameTemoto], len(c.queries)))
		out = append(out, "temoto's TestAgent takes a path: each timed temoto check includes extracting path+query from the URL "+
			"(a non-allocating string slice), as our Allowed takes the full URL.")
	}
	if has(nameGrobots) {
		out = append(out, fmt.Sprintf(
			"grobotstxt has no parsed form: its parse row is the tokenizer with a no-op handler (grobotstxt.Parse), "+
				"each check re-parses the body (AgentAllowed), its checks are timed on 1 query in %d (%d queries), "+
				"and its retained heap is a copy of the body. Bodies are passed as pre-converted strings.",
			cfg.grobStride, checkers[nameGrobots].len()))
		if line := agreement(engs, cfg, checkers); line != "" {
			out = append(out, line)
		}
	}
	out = append(out, fmt.Sprintf("allowed %% is over the queries each implementation checked (grobotstxt: its subsample); "+
		"rare agent %q has no group in the corpus, so it falls back to `*` groups.", cfg.rareAgent))
	return out
}

// agreement compares each implementation's Googlebot verdicts with
// grobotstxt's on grobotstxt's query subsample.
func agreement(engs []engine, cfg config, checkers map[string]checker) string {
	ref := checkers[nameGrobots]
	line := fmt.Sprintf("agreement with grobotstxt, %s, on its %d queries:", cfg.agent, ref.len())
	found := false
	for _, e := range engs {
		if e.name == nameGrobots {
			continue
		}
		ch := checkers[e.name]
		same, total := 0, 0
		for j := 0; j < ref.len(); j++ {
			i := j * cfg.grobStride
			if i >= ch.len() {
				break
			}
			got, ok := ch.at(i, cfg.agent)
			if !ok {
				continue
			}
			want, _ := ref.at(j, cfg.agent)
			total++
			if got == want {
				same++
			}
		}
		if total > 0 {
			line += fmt.Sprintf(" %s %.2f%% (%d differ);", e.name, 100*float64(same)/float64(total), total-same)
			found = true
		}
	}
	if !found {
		return ""
	}
	return line[:len(line)-1] + "."
}
