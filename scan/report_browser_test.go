package scan

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The browser test loads the HTML report in Debian's chromium through
// chromedp, as the server's browser tests load the web checker: without
// chromium it skips, except under CI=true where it fails, and it is
// bounded by reportBrowserTimeout. `-shots DIR` writes what it looks at
// to DIR/report-*.png.

const reportBrowserTimeout = 90 * time.Second

var reportShots = flag.String("shots", "", "write the browser test's screenshots to `DIR`/report-*.png")

func reportChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found on PATH, and CI=true: the browser tests must run (apt-get install chromium)")
	}
	t.Skip("chromium not found on PATH: browser tests skipped (install Debian's chromium, or run with CI=true to make this a failure)")
	return ""
}

// reportManyRobots is the summary of a large crawl read for the default
// robots (SelectRobots(""), every search and AI robot of the registry)
// and one made-up robot with a long token: eight-digit counts, most
// robots on a row of their own, a third of them sharing one.
func reportManyRobots(t *testing.T) *Summary {
	t.Helper()
	rs, err := SelectRobots("")
	if err != nil {
		t.Fatal(err)
	}
	tokens := []string{"Example-Crawler-With-A-Rather-Long-Product-Token"}
	for _, r := range rs {
		tokens = append(tokens, r.Token)
	}
	const sites, none = 38_765_432, 12_345
	s := &Summary{Captures: 41_234_567, Sites: sites, Robots: map[string]VerdictCounts{}}
	for i, tok := range tokens {
		i := int64(i)
		var named, fallback, star [3]int64
		if i%3 != 2 {
			n := 1 + i*7_919%400_000
			named = [3]int64{n / 3, n / 4, n - n/3 - n/4}
			if i%4 == 1 {
				f := i * 104_729 % 300_000
				fallback = [3]int64{f / 2, 0, f - f/2}
			}
		}
		rest := int64(sites - none)
		for _, x := range append(named[:], fallback[:]...) {
			rest -= x
		}
		b, p := 1+i*15_485_863%2_000_000, 1+i*32_452_843%20_000_000
		if i%3 == 2 {
			b, p = 1_234_567, 23_456_789
		}
		star = [3]int64{b, p, rest - b - p}
		vc := reportVerdicts(named, fallback, star)
		vc["none"] = map[string]int64{sumOpen: none}
		s.Robots[tok] = vc
	}
	// Usage preferences of every source, with eight-digit counts.
	s.Usage = map[string]UsageCounts{}
	for i, p := range reportPurposes {
		no, yes := int64(1_234_567*(i+1)), int64(2_345_678)
		u := UsageCounts{No: no, Yes: yes, None: sites - no - yes, Sources: map[string]map[string]int64{}}
		for j, src := range append([]string{sumContentUsage, sumContentSignal}, sumControlTokens()...) {
			u.Sources[src] = map[string]int64{"no": no / int64(j+2)}
			if j < 2 {
				u.Sources[src]["yes"] = yes / int64(j+2)
			}
		}
		s.Usage[p] = u
	}
	return s
}

// TestBrowserReport: the HTML report of a scan of many robots fits a
// 1280×800 window: the page does not scroll sideways, the Robots table
// fits its box (its robots folded into rows, its headings and names
// wrapped) and no cell of it is cut, its lists of robots opened or not,
// and so does the Usage preferences table;
// in a narrow window the wide tables scroll inside their own box, the
// page never does.
func TestBrowserReport(t *testing.T) {
	path := reportChromium(t)
	s := reportManyRobots(t)
	file := filepath.Join(t.TempDir(), "report.html")
	if err := s.WriteFile(file); err != nil {
		t.Fatal(err)
	}
	rows := len(s.robotTable().Rows)
	t.Logf("%d robots on %d rows", len(s.Robots), rows)
	if rows >= len(s.Robots) {
		t.Errorf("%d robots on %d rows: none share one", len(s.Robots), rows)
	}

	ctx, cancel := context.WithTimeout(context.Background(), reportBrowserTimeout)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1280, 800), chromedp.Flag("disable-dev-shm-usage", true))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(bctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	// shot writes, under -shots, the window scrolled to the Robots table
	// to DIR/name.png.
	shot := func(name string) {
		t.Helper()
		if *reportShots == "" {
			return
		}
		do("scroll to the Robots table", chromedp.Evaluate[chromedp.Void](`document.querySelector('#robots table').scrollIntoView()`))
		b, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(*reportShots, name+".png"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// cut returns what does not fit: the page scrolling sideways, a table
	// wider than its box that does not scroll, one of the tables of
	// fitting (section ids) not fitting its box, a cell whose content
	// overflows it.
	cut := func(fitting ...string) string {
		t.Helper()
		var quoted []string
		for _, id := range fitting {
			quoted = append(quoted, strconv.Quote(id))
		}
		v, err := chromedp.Run(bctx, chromedp.Evaluate[string](`((fitting) => {
			const de = document.documentElement, bad = [];
			if (de.scrollWidth > de.clientWidth) bad.push('the page is ' + de.scrollWidth + ' px wide in ' + de.clientWidth);
			document.querySelectorAll('table').forEach(t => {
				const box = t.parentElement, id = t.closest('section').id, ox = getComputedStyle(box).overflowX;
				if (t.scrollWidth > box.clientWidth && ox !== 'auto' && ox !== 'scroll') bad.push(id + ': the table is cut');
				if (fitting.includes(id) && t.scrollWidth > box.clientWidth) bad.push(id + ': the table is ' + t.scrollWidth + ' px wide in ' + box.clientWidth);
				t.querySelectorAll('th, td').forEach(c => {
					if (c.scrollWidth > c.clientWidth + 1) bad.push(id + ': cell "' + c.textContent.trim().slice(0, 40) + '" is cut (' + c.scrollWidth + ' px in ' + c.clientWidth + ')');
				});
			});
			return bad.join('; ');
		})([`+strings.Join(quoted, ", ")+`])`))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}

	do("load the report", chromedp.EmulateViewport(1280, 800), chromedp.Navigate("file://"+file),
		chromedp.WaitVisible(chromedp.CSS("#robots table")))
	if bad := cut("robots", "usage"); bad != "" {
		t.Errorf("at 1280 px: %s", bad)
	}
	if w, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`)); err != nil || w > 1280 {
		t.Errorf("the page is %d px wide (%v)", w, err)
	}
	if n, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll('#robots tbody tr').length`)); err != nil || n != rows {
		t.Errorf("%d rows in the Robots table, want %d (%v)", n, rows, err)
	}
	shot("report-1280")
	do("open every list of robots", chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('#robots details').forEach(d => d.open = true)`))
	if bad := cut("robots", "usage"); bad != "" {
		t.Errorf("at 1280 px, the lists of robots open: %s", bad)
	}

	do("narrow the window", chromedp.EmulateViewport(480, 800))
	if bad := cut(); bad != "" {
		t.Errorf("at 480 px: %s", bad)
	}
	if ox, err := chromedp.Run(bctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector('#robots table').parentElement).overflowX`)); err != nil || ox != "auto" {
		t.Errorf("the Robots table's box has overflow-x %q (%v), want auto", ox, err)
	}
	shot("report-480")
}
