package lint

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/robotskit/robots/syntax"
)

// reportText is what Config.MaxReport counts of a report, exactly: for
// each problem of Fold, its record's skeleton, its check's code, name,
// severity and explanation, its message and families, and two octets for
// each further line.
func reportText(ds []Diagnostic) int64 {
	var n int64
	for _, d := range Fold(ds) {
		n += recordSize(d.Check, d.Message, d.Families())
		if len(d.Lines) > 1 {
			n += 2 * int64(len(d.Lines)-1)
		}
	}
	return n
}

// TestMaxReportSound: the bound RunContext adds up never passes what the
// report holds: a MaxReport of exactly the report's texts lets every
// file through with its findings, under every configuration.
func TestMaxReportSound(t *testing.T) {
	files := workFiles()
	files["groups"] = manyGroups(300)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, wc := range workConfigs {
		for _, name := range names {
			cfg := wc.cfg
			f := syntax.Parse("", []byte(files[name]))
			ds, err := RunContext(context.Background(), f, &cfg)
			if err != nil {
				t.Fatal(err)
			}
			size := reportText(ds)
			if size == 0 {
				continue
			}
			cfg.MaxReport = size
			got, err := RunContext(context.Background(), f, &cfg)
			if err != nil || shown(got) != shown(ds) {
				t.Errorf("%s %s: MaxReport of the report's own %d octets: %v", wc.name, name, size, err)
			}
		}
	}
}

// TestMaxReportEarly: a file whose report is past the bound is refused
// before the checks after the one that passed it: with a bound of a
// third of its report, the run stops with ErrReport having done less
// work than the whole check.
func TestMaxReportEarly(t *testing.T) {
	f := syntax.Parse("", []byte(manyGroups(20000)))
	ds, whole, err := run(context.Background(), f, &Config{})
	if err != nil {
		t.Fatal(err)
	}
	size := reportText(ds)
	ds, work, err := run(context.Background(), f, &Config{MaxReport: size / 3})
	if !errors.Is(err, ErrReport) || ds != nil {
		t.Fatalf("MaxReport %d of a %d-octet report: %d findings, %v; want ErrReport", size/3, size, len(ds), err)
	}
	if work >= whole {
		t.Errorf("refused after %d units of work, the whole check's %d", work, whole)
	}
	t.Logf("refused after %d of %d units of work (%.0f%%)", work, whole, 100*float64(work)/float64(whole))
}

// manyGroups is a file of n groups, each for a robot of its own with a
// rule of its own: a problem or two in each.
func manyGroups(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "User-agent: bot%d\nDisallow: /p%d/\n", i, i)
	}
	return b.String()
}
