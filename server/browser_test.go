package server

import (
	"bytes"
	"context"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
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
)

// The browser tests drive Debian's chromium through the page at / with
// chromedp. Without chromium they skip, except under CI=true where they
// fail. Every test is bounded by browserTimeout, so a hung browser
// cannot stall CI. `go test ./server -run Browser -update` rewrites
// docs/screenshot.png.

const browserTimeout = 60 * time.Second

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

const browserSample = "User-agent: *\nDisallow: /private\nDisalow: /tmp\n\nUser-agent: GPTBot\nDisallow: /\n"

// TestBrowserCheck: with JavaScript on, the checker renders the
// diagnostics at their lines and the corrected file with a diff and a
// download; the URL tester draws its matrix and a cell highlights its
// line; the tabs work from the keyboard; the AI summary runs; errors are
// shown; the page fits a phone; and a screenshot is taken.
func TestBrowserCheck(t *testing.T) {
	_, ts := newTest(t, Config{})
	tb := newTab(t, 1200, 900)
	start := time.Now()

	tb.do("load the page and submit a file",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#tabs")),
		chromedp.SetValue(chromedp.CSS("#robots"), browserSample),
		chromedp.Click(chromedp.CSS("#check-submit")),
		chromedp.WaitVisible(chromedp.CSS("#file-view li.has-diag")),
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
	tb.do("open the explanation", chromedp.Click(chromedp.CSS("#src-L3 details summary")),
		chromedp.WaitVisible(chromedp.CSS("#src-L3 details p")))
	if s := tb.text("#diff-summary"); !strings.Contains(s, "removed") || !strings.Contains(s, "added") {
		t.Errorf("diff summary %q", s)
	}
	if s := tb.text("#diff-view li.add"); !strings.Contains(s, "User-agent: GPTBot") {
		t.Errorf("first added line %q", s)
	}

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
		if want := "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\nDisalow: /tmp\n"; string(got) != want {
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

	// The AI summary runs when its tab opens.
	tb.do("open the AI tab", chromedp.Click(chromedp.CSS("#tab-ai")), chromedp.WaitVisible(chromedp.CSS("#ai-summary")))
	if s := tb.text("#ai-blocked"); !strings.Contains(s, "GPTBot") || strings.Contains(s, "ClaudeBot") {
		t.Errorf("blocked site-wide: %q", s)
	}
	if s := tb.text("#ai-open"); !strings.Contains(s, "ClaudeBot") {
		t.Errorf("not blocked: %q", s)
	}

	// Back to the findings for the screenshot.
	tb.do("back to Check", chromedp.Click(chromedp.CSS("#tab-check")), chromedp.WaitVisible(chromedp.CSS("#file-view")),
		chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	shot, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(shot))
	if err != nil || cfg.Width != 1200 {
		t.Errorf("screenshot: %v, %d px wide", err, cfg.Width)
	}
	if *update {
		if err := os.WriteFile(screenshotPath, shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// An error from the API is shown (and announced: role=alert).
	tb.do("check a private URL",
		chromedp.SetValue(chromedp.CSS("#url"), "http://127.0.0.1:9/"),
		chromedp.Click(chromedp.CSS("#check-submit")),
	)
	tb.waitFor("the error", `document.getElementById('check-error').textContent.includes('private targets')`)
	if role := eval[string](tb, `document.getElementById('check-error').getAttribute('role')`); role != "alert" {
		t.Errorf("error role %q", role)
	}

	// On a phone the page does not scroll sideways.
	tb.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
		chromedp.Clear(chromedp.CSS("#url")), chromedp.Click(chromedp.CSS("#check-submit")),
		chromedp.WaitVisible(chromedp.CSS("#file-view")))
	tb.waitFor("the layout to settle", `window.innerWidth === 390`)
	if w := eval[int](tb, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("on a 390 px phone the page is %d px wide", w)
	}
	tb.noConsoleErrors()
	t.Logf("browser steps took %v", time.Since(start).Round(time.Millisecond))
}

// TestBrowserSite: a URL check shows the fetch report and the fetched
// file; the page inspector shows a page as Googlebot sees it.
func TestBrowserSite(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, browserSample)
		case "/old":
			http.Redirect(w, r, "/x", http.StatusMovedPermanently)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("X-Robots-Tag", "googlebot: noindex")
			io.WriteString(w, `<html><head><title>T</title><meta name="robots" content="nosnippet"></head><body><a href="/private/a" rel=nofollow>a</a> <a href="/b">b</a></body></html>`)
		}
	}))
	defer site.Close()
	_, ts := newTest(t, Config{AllowPrivate: true})
	tb := newTab(t, 1200, 900)

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
	if s := tb.text("#readings"); !strings.Contains(s, "the rules apply") {
		t.Errorf("readings %q", s)
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
	tb.noConsoleErrors()
}

// TestBrowserNoJS: with JavaScript off, the form posts and the server
// renders the results.
func TestBrowserNoJS(t *testing.T) {
	_, ts := newTest(t, Config{})
	tb := newTab(t, 1000, 800)
	tb.do("check without JavaScript",
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}),
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#check-form")),
		chromedp.SetValue(chromedp.CSS("#robots"), browserSample),
		chromedp.Click(chromedp.CSS("#check-submit")),
		chromedp.WaitVisible(chromedp.CSS("#diagnostics")),
	)
	if s := tb.text("#diagnostics"); !strings.Contains(s, "RB305") {
		t.Errorf("diagnostics %q", s)
	}
	if s := tb.text("#fixed"); !strings.HasPrefix(s, "User-agent: GPTBot") {
		t.Errorf("fixed %q", s)
	}
	if a, err := chromedp.Run(tb.ctx, chromedp.AttributeValue(chromedp.CSS("#tabs"), "hidden")); err != nil || !a.Exists {
		t.Errorf("the tabs show without JavaScript (%v)", err)
	}
}
