package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/robotskit/robots/internal/wire"
)

// requestLog is a server that records the requests it answers.
type requestLog struct {
	mu   sync.Mutex
	seen []string
}

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.seen = append(l.seen, r.Method+" "+r.URL.Path)
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (l *requestLog) since(n int) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.seen[n:])
}

func (l *requestLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.seen)
}

// pageFindings are the findings the page draws, "where code severity",
// in the page's order; apiFindings the same of the API's answer.
const pageFindings = `Array.from(document.querySelectorAll('#js-results li.diag')).map(d => {
	const li = d.closest('#file-view > li');
	return (li ? li.id : 'file') + ' ' + d.querySelector('.code').textContent + ' ' + d.getAttribute('data-sev');
}).sort()`

func apiFindings(resp wire.CheckResponse, nLines int) []string {
	var out []string
	for _, d := range resp.Diagnostics {
		where := "file"
		lines := d.Lines
		if len(lines) == 0 {
			lines = []int{d.Line}
		}
		for _, n := range lines {
			if n >= 1 && n <= nLines {
				where = fmt.Sprint("src-L", n)
				break
			}
		}
		out = append(out, where+" "+d.Code+" "+d.Severity)
	}
	slices.Sort(out)
	return out
}

// TestBrowserWasm: the page loads the WebAssembly checker when the file
// box is focused, then checks a pasted file as it is typed and tests its
// URLs without a request to the server, and draws the findings the API
// gives for the same text; a browser that cannot run the checker asks
// the server.
func TestBrowserWasm(t *testing.T) {
	log := &requestLog{}
	ts := httptest.NewServer(log.wrap(New(Config{Addr: "127.0.0.1:0"})))
	t.Cleanup(ts.Close)
	tb := newTab(t, 1280, 900)

	tb.do("load the page and focus the file box",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#tabs")),
		chromedp.Click(chromedp.CSS("#robots")),
	)
	tb.waitFor("the WebAssembly checker", `document.body.getAttribute('data-checker') === 'wasm'`)
	if s := tb.text("#local-note"); !strings.Contains(s, "not sent to the server") {
		t.Errorf("the note on the file box: %q", s)
	}
	loaded := log.len()
	if got := strings.Join(log.since(0), ", "); !strings.Contains(got, "GET "+wasmURL) || !strings.Contains(got, "GET "+wasmExecURL) {
		t.Errorf("the page loaded %s", got)
	}

	// A paste: the box's value and an input event, as a browser fires it.
	tb.do("paste a file", chromedp.Evaluate[chromedp.Void](`(() => {
		const box = document.getElementById('robots');
		box.value = `+jsonString(browserRich)+`;
		box.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertFromPaste'}));
	})()`))
	tb.waitFor("the findings", `!!document.querySelector('#file-view li.has-diag')`)
	if reqs := log.since(loaded); len(reqs) > 0 {
		t.Errorf("the page sent %d requests while it checked the pasted file: %q", len(reqs), reqs)
	}
	if got, want := eval[[]string](tb, pageFindings), apiFindings(apiCheck(t, ts, browserRich, false), strings.Count(browserRich, "\n")); len(want) < 3 || !slices.Equal(got, want) {
		t.Errorf("the page shows\n%q\nthe API answers\n%q", got, want)
	}
	if s := eval[string](tb, `document.getElementById('check-status').textContent`); !strings.HasPrefix(s, "Checked: ") {
		t.Errorf("status line %q", s)
	}

	// Typing more: checked again, 200 ms after the last key.
	loaded = log.len() // after the test's own request to the API
	tb.do("type a line", chromedp.SendKeys(chromedp.CSS("#robots"), "Crawl-delay: 9999\nDisalow: /x\n"))
	tb.waitFor("the typed lines checked", `(document.getElementById('src-L16') || {textContent: ''}).textContent.includes('Disalow: /x')`)
	if reqs := log.since(loaded); len(reqs) > 0 {
		t.Errorf("the page sent %d requests while it checked the typed file: %q", len(reqs), reqs)
	}
	typed := eval[string](tb, `document.getElementById('robots').value`)
	if got, want := eval[[]string](tb, pageFindings), apiFindings(apiCheck(t, ts, typed, false), strings.Count(typed, "\n")); !slices.Equal(got, want) {
		t.Errorf("after typing, the page shows\n%q\nthe API answers\n%q", got, want)
	}

	// The tester reads the pasted file in the page too.
	loaded = log.len()
	tb.do("test URLs",
		chromedp.Click(chromedp.CSS("#tab-test")),
		chromedp.Click(chromedp.CSS("#test-submit")),
		chromedp.WaitVisible(chromedp.CSS("#test-matrix")),
	)
	if s := tb.text("#test-summary"); !strings.HasPrefix(s, "Tested ") {
		t.Errorf("test summary %q", s)
	}
	if reqs := log.since(loaded); len(reqs) > 0 {
		t.Errorf("the page sent %d requests while it tested the pasted file: %q", len(reqs), reqs)
	}
	tb.noConsoleErrors()

	// Without the checker (a browser without WebAssembly), the server
	// answers.
	n := log.len()
	tb.do("reload without the checker",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#tabs")),
		chromedp.Evaluate[chromedp.Void](`document.body.removeAttribute('data-wasm')`),
		chromedp.SetValue(chromedp.CSS("#robots"), browserSample),
		chromedp.Click(chromedp.CSS("#check-submit")),
		chromedp.WaitVisible(chromedp.CSS("#file-view li.has-diag")),
	)
	if reqs := strings.Join(log.since(n), ", "); !strings.Contains(reqs, "POST /api/v1/check") || strings.Contains(reqs, ".wasm") {
		t.Errorf("without WebAssembly the page sent %s", reqs)
	}
}
