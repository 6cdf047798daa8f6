package server

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/robotskit/robots/history"
)

// addLongHistory adds to the store at path a site with n versions that
// flap between two files and a 503, for the band that scrolls in its
// box.
func addLongHistory(t *testing.T, path, site string, n int) {
	t.Helper()
	st, err := history.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	at := historyT0
	for i := range n {
		at = at.Add(time.Duration(i%7+1) * time.Hour)
		v := history.Version{Site: site, Time: at, URL: site + "/robots.txt", Status: 200, Outcome: "success"}
		switch i % 3 {
		case 0:
			v.Body = []byte(historyV1)
		case 1:
			v.Body = []byte(historyV2)
		default:
			v.Status, v.Outcome = 503, "unreachable"
		}
		v.Size = int64(len(v.Body))
		if _, added, err := st.Record(v); err != nil || !added {
			t.Fatalf("version %d: %v %v", i+1, added, err)
		}
	}
}

// historyShotDir is where TestBrowserHistory writes its screenshots:
// -shots DIR, else a new temporary directory that is kept, whose path
// the test logs.
func historyShotDir(t *testing.T) string {
	t.Helper()
	if *shots != "" {
		return *shots
	}
	dir, err := os.MkdirTemp("", "robots-history-shots-")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBrowserHistory: a site's history page at 1280 px and at 480 px
// (a phone): the document does not scroll sideways, the timeline shows
// a segment per version in order, each with its outcome and an
// accessible name; the form compares the last two versions; a long
// history scrolls inside its own box. It writes history-1280.png and
// history-480.png (and the diff's) to the screenshot directory.
func TestBrowserHistory(t *testing.T) {
	path := newHistoryStore(t)
	const long = "https://long.example"
	addLongHistory(t, path, long, 200)
	_, ts := newTest(t, Config{Store: path, RateLimit: -1})
	dir := historyShotDir(t)
	page := ts.URL + historyPath()
	for _, width := range []int{1280, 480} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			tb := newTab(t, width, 900)
			if width < 600 {
				tb.do("phone viewport", chromedp.EmulateViewport(int64(width), 900, chromedp.EmulateMobile))
			}
			tb.do("load the site's history", chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS("#timeline")))
			tb.waitFor("the layout to settle", fmt.Sprintf(`window.innerWidth === %d`, width))
			if bad := tb.fits("#timeline, #history-versions, #diff-form, h1"); bad != "" {
				t.Errorf("at %d px: %s", width, bad)
			}
			segs := eval[[]string](tb, `Array.from(document.querySelectorAll('#timeline rect.seg')).map(r => {
				const b = r.getBoundingClientRect();
				return r.dataset.version + ' ' + r.dataset.outcome + ' ' + (b.width >= 1 && b.height >= 1 ? 'shown' : 'hidden') + ' ' + getComputedStyle(r).fill;
			})`)
			want := []string{"1 success", "2 success", "3 unreachable"}
			if len(segs) != len(want) {
				t.Fatalf("segments %q", segs)
			}
			fills := map[string]bool{}
			for i, s := range segs {
				f := strings.Fields(s)
				if f[0]+" "+f[1] != want[i] || f[2] != "shown" {
					t.Errorf("segment %d: %s, want %s shown", i, s, want[i])
				}
				fills[f[1]+strings.Join(f[3:], "")] = true
			}
			if len(fills) != 2 {
				t.Errorf("the outcomes are not drawn in two colours: %q", segs)
			}
			// Each segment is a link with an accessible name.
			names := eval[[]string](tb, `Array.from(document.querySelectorAll('#timeline a')).map(a => a.getAttribute('aria-label') + ' → ' + a.getAttribute('href'))`)
			if len(names) != 3 || !strings.HasPrefix(names[2], "version 3: 503 unreachable, from 2026-11-06T09:00:00Z") || !strings.HasSuffix(names[2], "&v=3") {
				t.Errorf("segment links %q", names)
			}
			if s := tb.text("#history-versions"); !strings.Contains(s, "robots.txt unreachable: complete disallow") {
				t.Errorf("versions table %q", s)
			}
			tb.do("scroll to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
			shot := filepath.Join(dir, fmt.Sprintf("history-%d.png", width))
			if err := os.WriteFile(shot, tb.shot(fmt.Sprintf("history-%d", width)), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot: %s", shot)

			tb.do("compare the last two versions", chromedp.Click(chromedp.CSS("#diff-submit")), chromedp.WaitVisible(chromedp.CSS("#diff-families")))
			if s := tb.text("#diff-families"); !strings.Contains(s, "google robots") || !strings.Contains(s, "complete disallow") || !strings.Contains(s, "no restrictions") {
				t.Errorf("the diff 2 → 3: %q", s)
			}
			if bad := tb.fits("#diff-families, #diff-versions, h1"); bad != "" {
				t.Errorf("the diff at %d px: %s", width, bad)
			}
			tb.do("the diff 1 → 2", chromedp.Navigate(ts.URL+historyPath("a", "1", "b", "2")), chromedp.WaitVisible(chromedp.CSS("#diff-rules")))
			if s := tb.text("#diff-rules"); !strings.Contains(s, "+ line 3: Disallow: /drafts/ (added)") || !strings.Contains(s, "Googlebot [google]") {
				t.Errorf("the diff 1 → 2: %q", s)
			}
			if bad := tb.fits("#diff-rules li, h1"); bad != "" {
				t.Errorf("the diff 1 → 2 at %d px: %s", width, bad)
			}
			shot = filepath.Join(dir, fmt.Sprintf("history-diff-%d.png", width))
			if err := os.WriteFile(shot, tb.shot(fmt.Sprintf("history-diff-%d", width)), 0o644); err != nil {
				t.Fatal(err)
			}

			// A version's body, escaped, each line numbered.
			tb.do("version 2", chromedp.Navigate(ts.URL+historyPath("v", "2")), chromedp.WaitVisible(chromedp.CSS("#version-body")))
			if s := tb.text("#L4"); !strings.Contains(s, "# <script>alert(1)</script>") {
				t.Errorf("version 2, line 4: %q", s)
			}
			if bad := tb.fits("#version-body li, #version-readings, #version-facts, h1"); bad != "" {
				t.Errorf("version 2 at %d px: %s", width, bad)
			}
			shot = filepath.Join(dir, fmt.Sprintf("history-version-%d.png", width))
			if err := os.WriteFile(shot, tb.shot(fmt.Sprintf("history-version-%d", width)), 0o644); err != nil {
				t.Fatal(err)
			}

			// A long history: the band scrolls inside its box, not the page.
			tb.do("a long history", chromedp.Navigate(ts.URL+"/history?"+url.Values{"site": {long}}.Encode()), chromedp.WaitVisible(chromedp.CSS("#timeline")))
			if bad := tb.fits("h1, #history-versions"); bad != "" {
				t.Errorf("a long history at %d px: %s", width, bad)
			}
			if n := eval[int](tb, `document.querySelectorAll('#timeline rect.seg').length`); n != 200 {
				t.Errorf("%d segments of the long history, want 200", n)
			}
			if !eval[bool](tb, `(() => { const b = document.querySelector('.band-box'); return b.scrollWidth > b.clientWidth && getComputedStyle(b).overflowX === 'auto'; })()`) {
				t.Error("the long band does not scroll inside its box")
			}
			tb.noConsoleErrors()
		})
	}
}
