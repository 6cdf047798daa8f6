package server

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/internal/wire"
)

// The browser tests drive Debian's chromium through the page at / with
// chromedp. Without chromium they skip, except under CI=true where they
// fail. Every test is bounded by browserTimeout, so a hung browser
// cannot stall CI. `go test ./server -run Browser -update` rewrites
// docs/screenshot.png; `-shots DIR` writes a full-page screenshot of each
// step worth looking at to DIR/ui-*.png.

const browserTimeout = 90 * time.Second

var shots = flag.String("shots", "", "write the browser tests' screenshots to `DIR`/ui-*.png")

// screenshotPath is the screenshot of the README, from the package dir.
var screenshotPath = filepath.Join("..", "docs", "screenshot.png")

func chromiumPath(t *testing.T) string {
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

// tab is a headless chromium tab and the console messages of its pages.
type tab struct {
	t   *testing.T
	ctx context.Context

	mu      sync.Mutex
	console []chromedp.ConsoleMessage
}

// newTab starts chromium with a width×height window.
func newTab(t *testing.T, width, height int) *tab {
	t.Helper()
	path := chromiumPath(t)
	ctx, cancel := context.WithTimeout(context.Background(), browserTimeout)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(width, height), chromedp.Flag("disable-dev-shm-usage", true))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	tb := &tab{t: t, ctx: bctx}
	done := make(chan struct{})
	t.Cleanup(func() {
		bcancel()
		<-done
		acancel()
		cancel()
	})
	if err := chromedp.Do(bctx); err != nil {
		close(done)
		t.Fatalf("starting %s: %v", path, err)
	}
	msgs := chromedp.Console(bctx)
	go func() {
		defer close(done)
		for m, err := range msgs {
			if err != nil {
				return
			}
			tb.mu.Lock()
			tb.console = append(tb.console, m)
			tb.mu.Unlock()
		}
	}()
	tb.do("viewport", chromedp.EmulateViewport(int64(width), int64(height)))
	return tb
}

// do runs steps, failing the test with what it was doing.
func (tb *tab) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, steps...); err != nil {
		tb.t.Fatalf("%s: %v%s", what, err, tb.consoleText())
	}
}

// text is the visible text of the first element sel matches.
func (tb *tab) text(sel string) string {
	tb.t.Helper()
	s, err := chromedp.Run(tb.ctx, chromedp.Text(chromedp.CSS(sel), chromedp.NodeVisible))
	if err != nil {
		tb.t.Fatalf("text of %s: %v%s", sel, err, tb.consoleText())
	}
	return s
}

// eval evaluates a JavaScript expression.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		tb.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript predicate until it holds.
func (tb *tab) waitFor(what, predicate string) {
	tb.t.Helper()
	if _, err := chromedp.Run(tb.ctx, chromedp.Poll[chromedp.Void](predicate, chromedp.WithPollingTimeout(0))); err != nil {
		tb.t.Fatalf("waiting for %s (%s): %v%s", what, predicate, err, tb.consoleText())
	}
}

func (tb *tab) consoleText() string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var b strings.Builder
	for _, m := range tb.console {
		b.WriteString("\n  console " + m.String())
	}
	return b.String()
}

// noConsoleErrors fails on an exception, a console error or a browser
// log error (a CSP violation among them); failed API requests, which
// the tests cause on purpose, are the network's and do not count.
func (tb *tab) noConsoleErrors() {
	tb.t.Helper()
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, m := range tb.console {
		if (m.Type == chromedp.ConsoleError || m.IsException()) && m.Source != "network" {
			tb.t.Errorf("browser console: %s (%s:%d)", m, m.URL, m.Line)
		}
	}
}

// shot takes a full-page screenshot and, under -shots, writes it to
// DIR/ui-name.png.
func (tb *tab) shot(name string) []byte {
	tb.t.Helper()
	b, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.t.Fatalf("screenshot %s: %v", name, err)
	}
	if *shots != "" {
		if err := os.WriteFile(filepath.Join(*shots, "ui-"+name+".png"), b, 0o644); err != nil {
			tb.t.Fatal(err)
		}
	}
	return b
}

// fits returns what does not fit the window's width: the page scrolling
// sideways, or an element of sel cut off or squeezed to nothing.
func (tb *tab) fits(sel string) string {
	tb.t.Helper()
	return eval[string](tb, `(() => {
		const w = document.documentElement.clientWidth, bad = [];
		if (document.documentElement.scrollWidth > w) bad.push('the page is ' + document.documentElement.scrollWidth + ' px wide');
		document.querySelectorAll(`+jsonString(sel)+`).forEach(e => {
			const r = e.getBoundingClientRect();
			if (r.width < 1 || r.left < 0 || r.right > w + 0.5) bad.push((e.getAttribute('aria-label') || e.textContent) + ' at ' + Math.round(r.left) + '..' + Math.round(r.right));
		});
		return bad.join('; ');
	})()`)
}

// apiCheck is the API's answer for a file, to compare the page with.
func apiCheck(t *testing.T, ts *httptest.Server, robots string, all bool) wire.CheckResponse {
	t.Helper()
	body, _ := json.Marshal(wire.CheckRequest{Robots: &robots, AllRobots: all})
	status, _, out := do(t, ts, "POST", "/api/v1/check", "application/json", string(body))
	var resp wire.CheckResponse
	if err := json.Unmarshal([]byte(out), &resp); status != 200 || err != nil {
		t.Fatalf("POST /api/v1/check: %d %v: %s", status, err, out)
	}
	return resp
}

const browserSample = "User-agent: *\nDisallow: /private\nDisalow: /tmp\n\nUser-agent: GPTBot\nDisallow: /\n"

// browserRich has an error, warnings, notes of the older robots and a
// finding on two lines.
const browserRich = "User-agent: *\nDisallow: /private\nDisalow: /tmp\nNoindex: /old\nDisallow: /private\nDisallow: /cgi-bin\nDisallow: /cgi-bin\n\n" +
	"User-agent: GPTBot\nDisallow: /\nAllow: /public/*$*\n\nSitemap: /sitemap.xml\nUser-agent: Bingbot\n"

// browserLong is a long file with hundreds of findings, as big sites
// have.
var browserLong = func() string {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 240 {
		fmt.Fprintf(&b, "Disalow: /section-%d/\n", i)
		if i%10 == 0 {
			fmt.Fprintf(&b, "Noindex: /old-%d/\n", i)
		}
	}
	b.WriteString("Sitemap: /sitemap.xml\n")
	return b.String()
}()

// TestBrowserCheck: with JavaScript on, the checker keeps to the major
// robots unless asked for the older ones; renders the findings at their
// lines, grouped by code and filtered by severity, with one page scroll;
// the corrected file with a diff and a download; the URL tester draws its
// matrix with every robot in view and a cell highlights its line; the
// tabs work from the keyboard; the AI summary runs; errors are shown; and
// screenshots are taken.
func TestBrowserCheck(t *testing.T) {
	_, ts := newTest(t, Config{})
	tb := newTab(t, 1280, 900)
	start := time.Now()

	// By default, the findings are those of the major robots: RB411
	// (first-match robots only) is not among them.
	tb.do("load the page and submit a file",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#tabs")),
		chromedp.SetValue(chromedp.CSS("#robots"), browserSample),
		chromedp.Click(chromedp.CSS("#check-submit")),
		chromedp.WaitVisible(chromedp.CSS("#file-view li.has-diag")),
	)
	if s := tb.text("#all-robots-hint"); !strings.Contains(s, "Google, Bing, Yandex and RFC 9309") || !strings.Contains(s, "1996 draft") {
		t.Errorf("the compatibility option's hint %q", s)
	}
	if eval[bool](tb, `!!document.getElementById('group-RB411')`) {
		t.Error("RB411 (first-match robots only) shown without the compatibility option")
	}
	tb.do("check again with the older robots",
		chromedp.Click(chromedp.CSS("#all-robots")),
		chromedp.Click(chromedp.CSS("#check-submit")),
		chromedp.WaitVisible(chromedp.CSS("#group-RB411")),
		chromedp.WaitVisible(chromedp.CSS("#diff-view li.add")),
	)
	// Every control has a label, in every panel.
	if unlabelled := eval[[]string](tb, `Array.from(document.querySelectorAll('input, select, textarea')).filter(e => !e.labels || e.labels.length === 0).map(e => e.id || e.name)`); len(unlabelled) > 0 {
		t.Errorf("controls without a label: %q", unlabelled)
	}
	if s := tb.text("#summary"); !strings.Contains(s, "2 findings") {
		t.Errorf("summary %q", s)
	}
	if s := eval[string](tb, `document.getElementById('check-status').textContent`); s != "Checked: 2 findings: 0 errors, 1 warning, 1 note." {
		t.Errorf("status line %q", s)
	}
	if id := eval[string](tb, `document.activeElement.id`); id != "h-findings" {
		t.Errorf("focus on %q after the check, want the findings heading", id)
	}
	if s := tb.text("#src-L3 .diag"); !strings.Contains(s, "RB305") || !strings.Contains(s, "Disalow") || !strings.Contains(s, "Affects") {
		t.Errorf("line 3's finding: %q", s)
	}
	if s := tb.text("#src-L1 .diag .code"); s != "RB411" {
		t.Errorf("line 1's finding: %q", s)
	}
	// The explanation opens on demand.
	if open := eval[bool](tb, `document.querySelector('#src-L3 details').open`); open {
		t.Error("the explanation is open before it is asked for")
	}
	// The README's screenshot: the findings of a short file, one group
	// open.
	tb.do("open a group and scroll to the top", chromedp.Click(chromedp.CSS("#group-RB305 summary")),
		chromedp.WaitVisible(chromedp.CSS("#group-RB305 .finding")), chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	shot := tb.shot("readme-1280")
	cfg, err := png.DecodeConfig(bytes.NewReader(shot))
	if err != nil || cfg.Width != 1280 {
		t.Errorf("screenshot: %v, %d px wide", err, cfg.Width)
	}
	if *update {
		if err := os.WriteFile(screenshotPath, shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if s := tb.text("#diff-summary"); !strings.Contains(s, "removed") || !strings.Contains(s, "added") {
		t.Errorf("diff summary %q", s)
	}
	if s := tb.text("#diff-view li.add"); !strings.Contains(s, "User-agent: GPTBot") {
		t.Errorf("first added line %q", s)
	}

	tb.do("open the explanation", chromedp.Click(chromedp.CSS("#src-L3 details summary")),
		chromedp.WaitVisible(chromedp.CSS("#src-L3 details p")))
	// The download is a blob: URL; the page's CSP must not stop it.
	dir := t.TempDir()
	progress := chromedp.Events(tb.ctx, browser.DownloadProgress)
	tb.do("download the corrected file",
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
				Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: new(true)})
			return err
		}),
		chromedp.Click(chromedp.CSS("#download")),
	)
	for ev, err := range progress {
		if err != nil {
			t.Fatalf("download: %v", err)
		}
		if ev.State == browser.DownloadProgressStateCanceled {
			t.Fatal("download canceled")
		}
		if ev.State != browser.DownloadProgressStateCompleted {
			continue
		}
		got, err := os.ReadFile(filepath.Join(dir, ev.GUID))
		if err != nil {
			t.Fatal(err)
		}
		if want := *apiCheck(t, ts, browserSample, true).Fixed; string(got) != want || !strings.HasPrefix(want, "User-agent: GPTBot\n") {
			t.Errorf("downloaded %q, want %q", got, want)
		}
		break
	}

	// The URL tester, reached with the keyboard.
	tb.do("open the tester with the arrow key",
		chromedp.Focus(chromedp.CSS("#tab-check")),
		chromedp.KeyEvent(kb.ArrowRight),
		chromedp.WaitVisible(chromedp.CSS("#panel-test")),
		chromedp.WaitNotVisible(chromedp.CSS("#panel-check")),
	)
	if id := eval[string](tb, `document.activeElement.id`); id != "tab-test" {
		t.Errorf("focus on %q after ArrowRight, want tab-test", id)
	}
	tb.do("test URLs",
		chromedp.SetValue(chromedp.CSS("#test-urls"), "/private/x\n/ok"),
		chromedp.Click(chromedp.CSS("#test-submit")),
		chromedp.WaitVisible(chromedp.CSS("#test-matrix .cell.disallowed")),
	)
	if n := eval[int](tb, `document.querySelectorAll('#test-matrix .cell').length`); n != 16 {
		t.Errorf("%d cells, want 8 robots × 2 URLs", n)
	}
	if n := eval[int](tb, `document.querySelectorAll('#test-matrix .cell.allowed').length`); n == 0 {
		t.Error("no allowed cell")
	}
	tb.do("pick Googlebot's /private/x cell",
		chromedp.Click(chromedp.CSS(`#test-matrix .cell[aria-label^="Googlebot, /private/x"]`)),
		chromedp.WaitVisible(chromedp.CSS("#t-L2.hl")),
	)
	if s := tb.text("#test-detail"); !strings.Contains(s, "disallowed by line 2: Disallow: /private") {
		t.Errorf("cell detail %q", s)
	}
	// Focus alone (Tab key) also shows the line.
	tb.do("focus GPTBot's /ok cell",
		chromedp.Focus(chromedp.CSS(`#test-matrix .cell[aria-label^="GPTBot, /ok"]`)),
		chromedp.WaitVisible(chromedp.CSS("#t-L6.hl")),
	)
	// Every robot chosen is in view: 10 robots, 6 URLs, robots down.
	tb.do("test 10 robots on 6 URLs",
		chromedp.Click(chromedp.CSS(`#test-robots input[value=DuckDuckBot]`)),
		chromedp.Click(chromedp.CSS(`#test-robots input[value=PerplexityBot]`)),
		chromedp.SetValue(chromedp.CSS("#test-urls"), "/\n/private/page\n/search?q=robots\n/images/photo.jpg\n/tmp/x\n/a/very/long/path/that/wraps/somewhere/index.html"),
		chromedp.Click(chromedp.CSS("#test-submit")),
		chromedp.WaitVisible(chromedp.CSS(`#test-matrix .cell[aria-label^="PerplexityBot, /a/very"]`)),
	)
	if n := eval[int](tb, `document.querySelectorAll('#test-matrix tbody th.robot').length`); n != 10 {
		t.Errorf("%d robot rows, want 10", n)
	}
	if bad := tb.fits("#test-matrix th.robot, #test-matrix .cell"); bad != "" {
		t.Errorf("at 1280 px the tester's matrix does not fit: %s", bad)
	}
	tb.shot("test-1280")

	// The AI summary runs when its tab opens.
	tb.do("open the AI tab", chromedp.Click(chromedp.CSS("#tab-ai")), chromedp.WaitVisible(chromedp.CSS("#ai-summary")))
	// GPTBot's own group blocks it; ClaudeBot follows "*", which
	// disallows /private: partly blocked, as robots audit says.
	if s := tb.text("#ai-blocked"); !strings.Contains(s, "GPTBot") || strings.Contains(s, "ClaudeBot") {
		t.Errorf("blocked: %q", s)
	}
	if s := tb.text("#ai-partly"); !strings.Contains(s, "ClaudeBot") || !strings.Contains(s, `the "*" group, line 1`) {
		t.Errorf("partly blocked: %q", s)
	}
	if n, want := eval[int](tb, `document.querySelectorAll('#ai-matrix tbody tr').length`), len(agents.AIRobots()); n != want {
		t.Errorf("%d AI robots shown, the registry has %d", n, want)
	}
	tb.do("open every AI robot", chromedp.Click(chromedp.CSS("#panel-ai details summary")),
		chromedp.WaitVisible(chromedp.CSS("#ai-matrix")))
	if bad := tb.fits("#ai-matrix th.robot"); bad != "" {
		t.Errorf("the AI table does not fit: %s", bad)
	}
	tb.shot("ai-1280")

	// A richer file: findings grouped by code, one header per code.
	rich := apiCheck(t, ts, browserRich, true)
	codes := map[string]int{}
	var multi *wire.Diagnostic
	for i, d := range rich.Diagnostics {
		codes[d.Code]++
		if len(d.Lines) > 1 && multi == nil {
			multi = &rich.Diagnostics[i]
		}
	}
	tb.do("check a richer file",
		chromedp.Click(chromedp.CSS("#tab-check")),
		chromedp.SetValue(chromedp.CSS("#robots"), browserRich),
		chromedp.Click(chromedp.CSS("#check-submit")),
		chromedp.WaitVisible(chromedp.CSS("#group-RB601")),
	)
	headers := eval[map[string]string](tb, `Object.fromEntries(Array.from(document.querySelectorAll('#groups > details.group')).map(g => [g.querySelector('summary .code').textContent, g.querySelector('summary .count').textContent]))`)
	if len(headers) != len(codes) || eval[int](tb, `document.querySelectorAll('#groups > details.group').length`) != len(codes) {
		t.Errorf("group headers %v, want one per code of %v", headers, codes)
	}
	for code, n := range codes {
		if want := fmt.Sprintf("%d finding", n); !strings.HasPrefix(headers[code], want) {
			t.Errorf("%s's header says %q, want %q", code, headers[code], want)
		}
	}
	if eval[int](tb, `document.querySelectorAll('#groups > details[open]').length`) != 0 {
		t.Error("a group is open before it is asked for")
	}
	// A finding on several lines says so and highlights them all.
	if multi == nil {
		t.Error("no finding of browserRich has several lines: the API sends no \"lines\"")
	} else {
		g := "#group-" + multi.Code
		tb.do("open the group of a finding on several lines", chromedp.Click(chromedp.CSS(g+" summary")), chromedp.WaitVisible(chromedp.CSS(g+" .finding")))
		want := fmt.Sprintf("line %d and %d more", multi.Lines[0], len(multi.Lines)-1)
		if s := tb.text(g + " .finding .at"); s != want {
			t.Errorf("%s's finding at %q, want %q", multi.Code, s, want)
		}
		tb.do("go to its lines", chromedp.Click(chromedp.CSS(g+" .finding .at")))
		for _, n := range multi.Lines {
			tb.waitFor(fmt.Sprintf("line %d highlighted", n), fmt.Sprintf(`document.getElementById('src-L%d').classList.contains('hl')`, n))
		}
	}
	// The severity filter hides the warnings, everywhere.
	tb.do("hide the warnings", chromedp.Click(chromedp.CSS("#show-warning")))
	if n := eval[int](tb, `Array.from(document.querySelectorAll('#js-results .sev-warning')).filter(e => e.offsetParent !== null && !e.matches('#file-view > li, #sev-filter *')).length`); n != 0 {
		t.Errorf("%d warnings still shown", n)
	}
	if n := eval[int](tb, `document.querySelectorAll('#file-view > li.sev-warning').length`); n != 0 {
		t.Errorf("%d lines still marked as warnings", n)
	}
	if !eval[bool](tb, `document.querySelector('#group-RB601').offsetParent !== null && document.querySelector('#file-view .diag.sev-error').offsetParent !== null`) {
		t.Error("the error is hidden with the warnings")
	}
	if s := tb.text("#shown"); !strings.HasPrefix(s, "Showing ") {
		t.Errorf("filter note %q", s)
	}
	if s := tb.text("#sev-filter"); !strings.Contains(s, fmt.Sprintf("warnings (%d)", countSeverity(rich, "warning"))) {
		t.Errorf("filter %q: no count of warnings", s)
	}
	tb.do("show them again", chromedp.Click(chromedp.CSS("#show-warning")))
	if n := eval[int](tb, `Array.from(document.querySelectorAll('#groups .group.sev-warning')).filter(e => e.offsetParent !== null).length`); n == 0 {
		t.Error("the warnings did not come back")
	}
	tb.do("scroll to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	tb.shot("check-1280")

	// A long file: the page has the one scroll bar; the file and the
	// findings grow with it.
	tb.do("check a long file",
		chromedp.SetValue(chromedp.CSS("#robots"), browserLong),
		chromedp.Click(chromedp.CSS("#check-submit")),
		chromedp.WaitVisible(chromedp.CSS("#src-L200")),
	)
	tb.do("open the biggest group", chromedp.Click(chromedp.CSS("#group-RB305 summary")), chromedp.WaitVisible(chromedp.CSS("#group-RB305 .finding")))
	if h := eval[int](tb, `document.scrollingElement.scrollHeight`); h < 5*900 {
		t.Errorf("the page is %d px tall for a 266-line file: does the file scroll in a box?", h)
	}
	if boxes := eval[[]string](tb, scrollBoxes); len(boxes) > 0 {
		t.Errorf("boxes that scroll inside the page: %q", boxes)
	}
	tb.shot("check-long-1280")

	// An error from the API is shown (and announced: role=alert).
	tb.do("check a private URL",
		chromedp.SetValue(chromedp.CSS("#url"), "http://127.0.0.1:9/"),
		chromedp.Click(chromedp.CSS("#check-submit")),
	)
	tb.waitFor("the error", `document.getElementById('check-error').textContent.includes('private targets')`)
	if role := eval[string](tb, `document.getElementById('check-error').getAttribute('role')`); role != "alert" {
		t.Errorf("error role %q", role)
	}
	tb.noConsoleErrors()
	t.Logf("browser steps took %v", time.Since(start).Round(time.Millisecond))
}

func countSeverity(r wire.CheckResponse, sev string) int {
	n := 0
	for _, d := range r.Diagnostics {
		if d.Severity == sev {
			n++
		}
	}
	return n
}

// scrollBoxes lists the elements of the shown panel, but the form's text
// areas, that scroll vertically on their own.
const scrollBoxes = `Array.from(document.querySelectorAll('[role=tabpanel]:not([hidden]) *')).filter(e => {
	if (e.matches('textarea')) return false;
	const o = getComputedStyle(e).overflowY;
	return (o === 'auto' || o === 'scroll') && e.scrollHeight > e.clientHeight + 1;
}).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + '.' + e.className)`

// TestBrowserPhone: at 400 px the page does not scroll sideways, the
// findings and the file have no scroll of their own, the tester shows
// every robot, and the page report fits.
func TestBrowserPhone(t *testing.T) {
	site := browserSite(t)
	_, ts := newTest(t, Config{AllowPrivate: true})
	tb := newTab(t, 400, 860)
	tb.do("phone viewport", chromedp.EmulateViewport(400, 860, chromedp.EmulateMobile))
	tb.do("check a file",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#tabs")),
		chromedp.SetValue(chromedp.CSS("#robots"), browserRich),
		chromedp.Click(chromedp.CSS("#all-robots")),
		chromedp.Click(chromedp.CSS("#check-submit")),
		chromedp.WaitVisible(chromedp.CSS("#file-view li.has-diag")),
		chromedp.Click(chromedp.CSS("#group-RB601 summary")),
	)
	tb.waitFor("the layout to settle", `window.innerWidth === 400`)
	if bad := tb.fits("#tabs [role=tab], #sev-filter label, #groups summary, #file-view > li"); bad != "" {
		t.Errorf("at 400 px: %s", bad)
	}
	if boxes := eval[[]string](tb, scrollBoxes); len(boxes) > 0 {
		t.Errorf("boxes that scroll inside the page: %q", boxes)
	}
	tb.do("scroll to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	tb.shot("check-400")

	tb.do("test the default URLs",
		chromedp.Click(chromedp.CSS("#tab-test")),
		chromedp.Click(chromedp.CSS("#test-submit")),
		chromedp.WaitVisible(chromedp.CSS("#test-matrix .cell")),
	)
	if n := eval[int](tb, `Array.from(document.querySelectorAll('#test-matrix tbody th.robot')).filter(e => e.offsetParent !== null).length`); n != 8 {
		t.Errorf("%d robots shown, want 8", n)
	}
	if n := eval[int](tb, `Array.from(document.querySelectorAll('#test-matrix .cell')).filter(e => e.offsetParent !== null).length`); n != 32 {
		t.Errorf("%d cells shown, want 8 robots × 4 URLs", n)
	}
	if bad := tb.fits("#test-matrix th.robot, #test-matrix .cell, #test-matrix .cell-url"); bad != "" {
		t.Errorf("at 400 px the tester's matrix does not fit: %s", bad)
	}
	if boxes := eval[[]string](tb, scrollBoxes); len(boxes) > 0 {
		t.Errorf("boxes that scroll inside the page: %q", boxes)
	}
	tb.do("pick a cell", chromedp.Click(chromedp.CSS(`#test-matrix .cell[aria-label^="Googlebot, /private/page"]`)), chromedp.WaitVisible(chromedp.CSS("#t-L2.hl")))
	tb.do("scroll to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	tb.shot("test-400")

	tb.do("inspect a disallowed page",
		chromedp.Click(chromedp.CSS("#tab-page")),
		chromedp.SetValue(chromedp.CSS("#page-url"), site.URL+"/private/p"),
		chromedp.Click(chromedp.CSS("#page-submit")),
		chromedp.WaitVisible(chromedp.CSS("#page-report .badge.warn")),
	)
	if bad := tb.fits("#page-report .badge, #page-directives th, #page-links th"); bad != "" {
		t.Errorf("at 400 px the page report does not fit: %s", bad)
	}
	tb.shot("page-400")

	// Widening the window lays the matrix out again: robots down, URLs
	// across.
	tb.do("back to the tester", chromedp.Click(chromedp.CSS("#tab-test")))
	tb.do("a wide window", chromedp.EmulateViewport(1280, 860))
	tb.waitFor("the matrix to unstack", `!document.getElementById('test-matrix').classList.contains('stacked')`)
	if bad := tb.fits("#test-matrix th.robot, #test-matrix .cell"); bad != "" {
		t.Errorf("at 1280 px the tester's matrix does not fit: %s", bad)
	}
	tb.noConsoleErrors()
}

// browserSite serves a site: robots.txt is browserSample; /old redirects
// to /x; /private/p is disallowed and noindex; every page is noindex for
// Googlebot and nosnippet.
func browserSite(t *testing.T) *httptest.Server {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, browserSample)
		case "/old":
			http.Redirect(w, r, "/x", http.StatusMovedPermanently)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("X-Robots-Tag", "googlebot: noindex")
			io.WriteString(w, `<html><head><title>T &lt;b&gt;</title><meta name="robots" content="nosnippet"></head><body><a href="/private/a" rel=nofollow>a</a> <a href="/b">b</a></body></html>`)
		}
	}))
	t.Cleanup(site.Close)
	return site
}

// TestBrowserSite: a URL check shows the fetch report and the fetched
// file; the page inspector shows a page as Googlebot sees it, and a page
// robots.txt disallows as indexable in amber, not green.
func TestBrowserSite(t *testing.T) {
	site := browserSite(t)
	_, ts := newTest(t, Config{AllowPrivate: true})
	tb := newTab(t, 1280, 900)

	tb.do("check a site",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#tabs")),
		chromedp.SetValue(chromedp.CSS("#url"), site.URL+"/"),
		chromedp.Click(chromedp.CSS("#check-submit")),
		chromedp.WaitVisible(chromedp.CSS("#fetch-report")),
		chromedp.WaitVisible(chromedp.CSS("#src-L2")),
	)
	if s := tb.text("#hops"); !strings.Contains(s, "200") || !strings.Contains(s, site.URL+"/robots.txt") || !strings.Contains(s, "ms") {
		t.Errorf("hops %q", s)
	}
	// Each thing once: the outcome with what it means, and one sentence
	// for the families that read the answer alike; no Mandelbot, no
	// family of the checker's (issue 28, point #42).
	if s := tb.text("#fetch-outcome"); s != "success: rules of the file apply" {
		t.Errorf("fetch outcome %q", s)
	}
	if s := tb.text("#readings"); s != "Google, Bing, Yandex and other RFC 9309 robots read this answer alike." {
		t.Errorf("readings %q", s)
	}
	if s := tb.text("#fetch-report"); strings.Count(s, "rules of the file apply") != 1 || strings.Contains(strings.ToLower(s), "mandelbot") || strings.Contains(s, "rules apply —") {
		t.Errorf("fetch report %q", s)
	}
	if s := tb.text("#src-L2"); !strings.Contains(s, "Disallow: /private") {
		t.Errorf("line 2 of the fetched file %q", s)
	}

	tb.do("inspect a page",
		chromedp.Click(chromedp.CSS("#tab-page")),
		chromedp.SetValue(chromedp.CSS("#page-url"), site.URL+"/old"),
		chromedp.Click(chromedp.CSS("#page-submit")),
		chromedp.WaitVisible(chromedp.CSS("#page-report")),
	)
	if s := tb.text("#page-report .badges"); !strings.Contains(s, "✓ crawlable") || !strings.Contains(s, "not indexable") || !strings.Contains(s, "no snippet") {
		t.Errorf("badges %q", s)
	}
	if s := tb.text("#page-report"); !strings.Contains(s, "301") || !strings.Contains(s, "Allowed") {
		t.Errorf("report %q", s)
	}
	if s := tb.text("#page-directives"); !strings.Contains(s, "noindex") || !strings.Contains(s, "x-robots-tag") {
		t.Errorf("directives %q", s)
	}
	if s := tb.text("#page-links"); !strings.Contains(s, "/private/a") || !strings.Contains(s, "disallowed (line 2)") {
		t.Errorf("links %q", s)
	}

	// Disallowed and noindex: the noindex is never read, and the page can
	// be indexed from links. That is no pass: amber, with the reason.
	tb.do("inspect a disallowed page",
		chromedp.SetValue(chromedp.CSS("#page-url"), site.URL+"/private/p"),
		chromedp.Click(chromedp.CSS("#page-submit")),
		chromedp.WaitVisible(chromedp.CSS("#page-report .badge.warn")),
	)
	checkAmber(t, tb)
	tb.shot("page-1280")

	// A link to a report the server draws opens on the inspector's tab.
	tb.do("follow a link to a report",
		chromedp.Navigate(ts.URL+"/?page="+url.QueryEscape(site.URL+"/private/p")+"#panel-page"),
		chromedp.WaitVisible(chromedp.CSS("#page-report .badge.warn")),
	)
	if sel := eval[string](tb, `document.getElementById('tab-page').getAttribute('aria-selected')`); sel != "true" {
		t.Errorf("the inspector's tab is not selected (aria-selected %q)", sel)
	}
	tb.noConsoleErrors()
}

// TestBrowserBareHost: with JavaScript on, the Site URL and the page
// inspector take a bare host (no "Please enter a URL." from the
// browser): the form goes to the server, which reads it as robots check
// and robots page do, shows the reading and fills the field with the URL
// read; the other tabs then work from it (issue 28, point #18).
func TestBrowserBareHost(t *testing.T) {
	site := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, browserSample)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html><head><title>Hello</title></head><body>hi</body></html>")
	}))
	t.Cleanup(site.Close)
	s, ts := newTest(t, Config{AllowPrivate: true})
	s.client.Transport.(*http.Transport).TLSClientConfig = site.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	host := strings.TrimPrefix(site.URL, "https://")
	tb := newTab(t, 1280, 900)

	tb.do("check a bare host",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#tabs")),
		chromedp.SetValue(chromedp.CSS("#url"), host),
		chromedp.Click(chromedp.CSS("#check-submit")),
		chromedp.WaitVisible(chromedp.CSS("#url-reading")),
		chromedp.WaitVisible(chromedp.CSS("#fetch-report")),
	)
	if s := tb.text("#url-reading"); !strings.HasPrefix(s, `reading "`+host+`" as https://`+host+`/robots.txt`) {
		t.Errorf("the reading %q", s)
	}
	if v := eval[string](tb, `document.getElementById('url').value`); v != "https://"+host {
		t.Errorf("the field holds %q after the check, want https://%s", v, host)
	}
	tb.do("test URLs of the site read",
		chromedp.Click(chromedp.CSS("#tab-test")),
		chromedp.Click(chromedp.CSS("#test-submit")),
		chromedp.WaitVisible(chromedp.CSS("#test-matrix")),
	)

	tb.do("inspect a bare host's page",
		chromedp.Click(chromedp.CSS("#tab-page")),
		chromedp.SetValue(chromedp.CSS("#page-url"), host+"/x"),
		chromedp.Click(chromedp.CSS("#page-submit")),
		chromedp.WaitVisible(chromedp.CSS("#page-url-reading")),
		chromedp.WaitVisible(chromedp.CSS("#page-report")),
	)
	if s := tb.text("#page-url-reading"); !strings.HasPrefix(s, `reading "`+host+`/x" as https://`+host+`/x`) {
		t.Errorf("the page's reading %q", s)
	}
	if s := tb.text("#h-page-report"); s != "Hello — https://"+host+"/x" {
		t.Errorf("the report's heading %q", s)
	}
	tb.noConsoleErrors()
}

// checkAmber checks the "indexable" badge of a page robots.txt disallows.
func checkAmber(t *testing.T, tb *tab) {
	t.Helper()
	if s := tb.text("#page-report .badges"); !strings.Contains(s, "✗ not crawlable") || !strings.Contains(s, "indexable from links only") || strings.Contains(s, "✓ indexable") {
		t.Errorf("badges %q", s)
	}
	bg := eval[string](tb, `getComputedStyle(document.querySelector('#page-report .badge.warn')).backgroundColor`)
	green := eval[string](tb, `(() => { const e = document.createElement('span'); e.className = 'badge ok'; document.body.appendChild(e); const c = getComputedStyle(e).backgroundColor; e.remove(); return c; })()`)
	if bg != "rgb(254, 240, 205)" || bg == green {
		t.Errorf("the indexable badge of a disallowed page is %s, want amber", bg)
	}
	if title := eval[string](tb, `document.querySelector('#page-report .badge.warn').title`); !strings.Contains(title, "indexed from links") {
		t.Errorf("the amber badge's tooltip %q", title)
	}
	if s := tb.text("#page-badge-note"); !strings.Contains(s, "robots.txt blocks the crawl") {
		t.Errorf("the amber badge's note %q", s)
	}
}

// TestBrowserNoJS: with JavaScript off, the tabs and the panels that need
// it are hidden, the form posts and the server renders the results, and
// the page inspector's form renders its report as HTML (with no usage
// verdict for a page robots.txt disallows).
func TestBrowserNoJS(t *testing.T) {
	site := browserSite(t)
	_, ts := newTest(t, Config{AllowPrivate: true})
	tb := newTab(t, 1280, 900)
	tb.do("check without JavaScript",
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}),
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#check-form")),
	)
	for _, sel := range []string{"#tabs", "#panel-test", "#panel-ai"} {
		if d := eval[string](tb, `getComputedStyle(document.querySelector('`+sel+`')).display`); d != "none" {
			t.Errorf("%s shows without JavaScript (display %s)", sel, d)
		}
	}
	tb.do("check",
		chromedp.SetValue(chromedp.CSS("#robots"), browserSample),
		chromedp.Click(chromedp.CSS("#all-robots")),
		chromedp.Click(chromedp.CSS("#check-submit")),
		chromedp.WaitVisible(chromedp.CSS("#diagnostics")),
	)
	if s := tb.text("#diagnostics"); !strings.Contains(s, "RB305") || !strings.Contains(s, "RB411") {
		t.Errorf("diagnostics with the older robots %q", s)
	}
	if !eval[bool](tb, `document.getElementById('all-robots').checked`) {
		t.Error("the compatibility option lost its value")
	}
	if s := tb.text("#fixed"); !strings.HasPrefix(s, "User-agent: GPTBot") {
		t.Errorf("fixed %q", s)
	}
	if d := eval[string](tb, `getComputedStyle(document.getElementById('tabs')).display`); d != "none" {
		t.Errorf("the tabs show without JavaScript after the check (display %s)", d)
	}

	tb.do("inspect a disallowed page",
		chromedp.SetValue(chromedp.CSS("#page-url"), site.URL+"/private/p"),
		chromedp.Click(chromedp.CSS("#page-submit")),
		chromedp.WaitVisible(chromedp.CSS("#page-report")),
	)
	if u := eval[string](tb, `location.pathname`); u != "/" {
		t.Errorf("the inspector's form led to %s", u)
	}
	checkAmber(t, tb)
	if s := tb.text("#page-directives"); !strings.Contains(s, "noindex") || !strings.Contains(s, "x-robots-tag") {
		t.Errorf("directives %q", s)
	}
	if s := tb.text("#page-links"); !strings.Contains(s, "/private/a") || !strings.Contains(s, "disallowed (line 2)") {
		t.Errorf("links %q", s)
	}
	if s := tb.text("#h-page-report"); !strings.HasPrefix(s, "T <b> — ") {
		t.Errorf("report heading %q", s)
	}
	if s := tb.text("#page-usage-none"); !strings.Contains(s, "robots.txt keeps the robot from fetching the page") {
		t.Errorf("the usage of a disallowed page: %q", s)
	}
	tb.shot("nojs-page-1280")
}

// TestBrowserIntentFix: with "also fix what changes some robots' reading",
// the corrected file gets the intent fixes, and the page lists the
// verdicts they change before the download; without it, the page lists
// the findings it left and why.
func TestBrowserIntentFix(t *testing.T) {
	_, ts := newTest(t, Config{})
	tb := newTab(t, 1280, 900)
	tb.do("check a file with intent fixes",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#tabs")),
		chromedp.SetValue(chromedp.CSS("#robots"), intentSample),
		chromedp.Click(chromedp.CSS("#check-submit")),
		chromedp.WaitVisible(chromedp.CSS("#unfixed")),
	)
	if eval[bool](tb, `!!document.getElementById('verdict-changes')`) {
		t.Error("verdict changes shown without the intent fixes")
	}
	left := eval[string](tb, `document.getElementById('unfixed').textContent`)
	if !strings.Contains(left, "RB501") || !strings.Contains(left, "not applied: it changes what some robots do") {
		t.Errorf("the findings left: %q", left)
	}
	tb.do("check again with the intent fixes",
		chromedp.Click(chromedp.CSS("#intent-fixes")),
		chromedp.Click(chromedp.CSS("#check-submit")),
		chromedp.WaitVisible(chromedp.CSS("#verdict-changes li")),
	)
	changes := eval[string](tb, `document.querySelector('#verdict-changes ul.verdicts').textContent`)
	if !strings.Contains(changes, "line 2 added: Disallow: /admin/ — /admin/ and everything under it: now disallowed, for Googlebot (google)") {
		t.Errorf("verdict changes: %q", changes)
	}
	// The changes speak in the file's rules: no made-up path is shown
	// outside the closed list of the paths tried.
	if strings.Contains(changes, "//") || strings.Contains(changes, "/admin/x") {
		t.Errorf("verdict changes name a probe path: %q", changes)
	}
	fixed := eval[string](tb, `Array.from(document.querySelectorAll('#diff-view li.add')).map(function (li) { return li.textContent; }).join('\n')`)
	if !strings.Contains(fixed, "Disallow: /admin/") {
		t.Errorf("the corrected file does not have the intent fix:\n%s", fixed)
	}
	tb.noConsoleErrors()
	tb.shot("intent-1280")
}

// TestBrowserUsage: the page inspector shows what the robot may do with
// the page, a row per purpose with the statement that says so, the same
// rows with JavaScript (drawn by app.js from the API's report) and
// without (the form drawn by the server), and why there are none for a
// page robots.txt disallows; the URL tester shows each allowed
// cell's usage in letters, says what they mean, and a cell picked names
// the statements and highlights their lines; both fit 1280 and 400 px.
// -shots DIR keeps ui-usage-inspector-1280.png, the inspector with its
// usage block.
func TestBrowserUsage(t *testing.T) {
	site := usageSite(t)
	_, ts := newTest(t, Config{AllowPrivate: true})
	tb := newTab(t, 1280, 900)
	rows := `Array.from(document.querySelectorAll('#page-usage tbody tr')).map(tr => Array.from(tr.children).map(c => c.textContent.trim().replace(/\s+/g, ' ')).join(' | '))`
	want := []string{
		"search (search results) | yes | robots.txt: Content-Signal line 2",
		"ai-input (AI answers and grounding) | no | robots.txt: robots token Google-Extended, line 6",
		"ai-train (training AI models) | no | robots.txt: Content-Signal line 2",
	}

	tb.do("inspect a page as Googlebot",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#tabs")),
		chromedp.Click(chromedp.CSS("#tab-page")),
		chromedp.SetValue(chromedp.CSS("#page-url"), site.URL+"/article"),
		chromedp.SetValue(chromedp.CSS("#page-robot"), "Googlebot"),
		chromedp.Click(chromedp.CSS("#page-submit")),
		chromedp.WaitVisible(chromedp.CSS("#page-usage")),
	)
	if got := eval[[]string](tb, rows); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the usage rows drawn by app.js:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := tb.text("#page-licenses"); !strings.Contains(s, "https://example.com/licence.xml") {
		t.Errorf("licences %q", s)
	}
	if c := eval[string](tb, `getComputedStyle(document.querySelector('#page-usage td.use-no')).color`); c != "rgb(165, 14, 14)" {
		t.Errorf("a usage \"no\" is %s, want the red of a refusal", c)
	}
	if bad := tb.fits("#page-usage th, #page-usage td"); bad != "" {
		t.Errorf("at 1280 px the usage table does not fit: %s", bad)
	}
	tb.do("scroll to the usage block", chromedp.Evaluate[chromedp.Void](`document.getElementById('page-usage').scrollIntoView()`))
	tb.shot("usage-inspector-1280")

	tb.do("inspect a disallowed page",
		chromedp.SetValue(chromedp.CSS("#page-url"), site.URL+"/private/x"),
		chromedp.Click(chromedp.CSS("#page-submit")),
		chromedp.WaitVisible(chromedp.CSS("#page-usage-none")),
	)
	if s := tb.text("#page-usage-none"); !strings.Contains(s, "robots.txt keeps the robot from fetching the page") {
		t.Errorf("the usage of a disallowed page: %q", s)
	}

	// The tester: the file of the Check tab, the default robots.
	tb.do("test two URLs",
		chromedp.Click(chromedp.CSS("#tab-check")),
		chromedp.SetValue(chromedp.CSS("#robots"), usageRobots),
		chromedp.Click(chromedp.CSS("#tab-test")),
		chromedp.SetValue(chromedp.CSS("#test-urls"), "/blog/post\n/private/x"),
		chromedp.Click(chromedp.CSS("#test-submit")),
		chromedp.WaitVisible(chromedp.CSS("#test-usage-key")),
	)
	chips := func(label string) string {
		return eval[string](tb, `(document.querySelector('#test-matrix .cell[aria-label^=`+jsonString(label)+`] .cell-usage') || {textContent: ''}).textContent`)
	}
	for label, want := range map[string]string{
		"Googlebot, /blog/post": "S✓I✗T✗", "GPTBot, /blog/post": "S✓I–T✗", "Applebot, /blog/post": "S✓I–T✗",
		"Googlebot, /private/x": "", "Google-Extended, /blog/post": "",
	} {
		if got := chips(label); got != want {
			t.Errorf("%s: usage letters %q, want %q", label, got, want)
		}
	}
	tb.do("pick Googlebot's /blog/post cell",
		chromedp.Click(chromedp.CSS(`#test-matrix .cell[aria-label^="Googlebot, /blog/post"]`)),
		chromedp.WaitVisible(chromedp.CSS("#t-L6.hl")),
	)
	if s := tb.text("#test-detail"); !strings.Contains(s, "Usage: search yes (robots.txt: Content-Signal line 2); ai-input no (robots.txt: robots token Google-Extended, line 6); ai-train no (robots.txt: Content-Signal line 2).") {
		t.Errorf("cell detail %q", s)
	}
	if !eval[bool](tb, `document.getElementById('t-L2').classList.contains('hl')`) {
		t.Error("the Content-Signal line is not highlighted")
	}
	if bad := tb.fits("#test-matrix th.robot, #test-matrix .cell"); bad != "" {
		t.Errorf("at 1280 px the tester's matrix does not fit: %s", bad)
	}
	tb.shot("usage-test-1280")

	tb.do("a phone", chromedp.EmulateViewport(400, 860, chromedp.EmulateMobile))
	tb.waitFor("the layout to settle", `window.innerWidth === 400`)
	if bad := tb.fits("#test-matrix th.robot, #test-matrix .cell, #test-matrix .cell-usage"); bad != "" {
		t.Errorf("at 400 px the tester's matrix does not fit: %s", bad)
	}
	tb.shot("usage-test-400")
	tb.do("inspect the page on a phone",
		chromedp.Click(chromedp.CSS("#tab-page")),
		chromedp.SetValue(chromedp.CSS("#page-url"), site.URL+"/article"),
		chromedp.Click(chromedp.CSS("#page-submit")),
		chromedp.WaitVisible(chromedp.CSS("#page-usage")),
	)
	if bad := tb.fits("#page-usage th, #page-usage td"); bad != "" {
		t.Errorf("at 400 px the usage table does not fit: %s", bad)
	}
	tb.shot("usage-inspector-400")
	tb.noConsoleErrors()

	// Without JavaScript, the inspector's form gets the same rows from
	// the server.
	tb.do("inspect without JavaScript",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}),
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#page-form")),
		chromedp.SetValue(chromedp.CSS("#page-url"), site.URL+"/article"),
		chromedp.SetValue(chromedp.CSS("#page-robot"), "Googlebot"),
		chromedp.Click(chromedp.CSS("#page-submit")),
		chromedp.WaitVisible(chromedp.CSS("#page-usage")),
	)
	if got := eval[[]string](tb, rows); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the usage rows drawn by the server:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := tb.text("#page-licenses"); !strings.Contains(s, "https://example.com/licence.xml") {
		t.Errorf("licences without JavaScript %q", s)
	}
	tb.shot("usage-nojs-inspector-1280")
}
