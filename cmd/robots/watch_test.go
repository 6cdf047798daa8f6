package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/history"
)

// siteStates serves a robots.txt that a test changes between passes.
type siteStates struct {
	mu     sync.Mutex
	body   string
	status int
}

func (s *siteStates) set(status int, body string) {
	s.mu.Lock()
	s.status, s.body = status, body
	s.mu.Unlock()
}

func (s *siteStates) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	status, body := s.status, s.body
	s.mu.Unlock()
	if r.URL.Path != "/robots.txt" {
		http.NotFound(w, r)
		return
	}
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// hookReceiver records the webhook's POSTs.
type hookReceiver struct {
	mu    sync.Mutex
	posts []map[string]any
	fail  int // answer 503 to this many POSTs first
}

func (h *hookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fail > 0 {
		h.fail--
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	var m map[string]any
	if err := json.NewDecoder(r.Body).Decode(&m); err != nil || r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	h.posts = append(h.posts, m)
}

func (h *hookReceiver) got() []map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]map[string]any(nil), h.posts...)
}

const (
	watchV1 = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"
	watchV2 = "User-agent: *\nDisallow: /private/\nDisallow: /drafts/\n\nUser-agent: GPTBot\nDisallow: /\n"
)

// TestWatchVersions is issue 30's run: a local site through v1, v1, v2
// and a 503, one robots watch pass each. Versions are stored only on a
// change; the report names the changed rule and the robots; the webhook
// receives one POST per change; robots history -at gives the body in
// force at each time; and a store opened again shows the same history.
func TestWatchVersions(t *testing.T) {
	site := &siteStates{}
	srv := httptest.NewServer(site)
	defer srv.Close()
	hook := &hookReceiver{}
	hsrv := httptest.NewServer(hook)
	defer hsrv.Close()
	store := filepath.Join(t.TempDir(), "history.db")

	type pass struct {
		status int
		body   string
		code   int
		want   []string
	}
	passes := []pass{
		{200, watchV1, exitOK, []string{"$SERVER: version 1 stored: ", "HTTP 200, success, 66 bytes"}},
		{200, watchV1, exitOK, []string{"$SERVER: unchanged since version 1"}},
		{200, watchV2, exitFinding, []string{"$SERVER: version 2: ", "was version 1: ", "Disallow: /drafts/", "/drafts/ and everything under it"}},
		{503, "down for maintenance", exitFinding, []string{"$SERVER: version 3: ", "HTTP 503, unreachable",
			"google, bing and rfc9309 robots: robots.txt unreachable: complete disallow while it lasts", "before: the rules of version 2 apply",
			"yandex robots: no robots.txt: no restrictions"}},
	}
	var times []time.Time
	for i, p := range passes {
		site.set(p.status, p.body)
		before := time.Now()
		out, errs, code := runCLI(t, srv, "watch", "-store", store, "-webhook", hsrv.URL, srv.URL)
		times = append(times, before)
		if code != p.code {
			t.Errorf("pass %d: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", i+1, code, p.code, out, errs)
		}
		for _, w := range p.want {
			if !strings.Contains(out, w) {
				t.Errorf("pass %d: stdout lacks %q:\n%s", i+1, w, out)
			}
		}
		if i == 2 && (!strings.Contains(out, "GPTBot") && !strings.Contains(out, "Googlebot")) {
			t.Errorf("pass 3 names no robot:\n%s", out)
		}
	}

	// One POST per change: v1 → v2 and v2 → 503 (the first version is
	// no change).
	posts := hook.got()
	if len(posts) != 2 {
		t.Fatalf("webhook got %d POSTs, want 2: %v", len(posts), posts)
	}
	for i, want := range []float64{2, 3} {
		p := posts[i]
		v, _ := p["version"].(map[string]any)
		if p["event"] != "change" || p["changed"] != true || v["seq"] != want {
			t.Errorf("POST %d: %v", i+1, p)
		}
	}
	if _, ok := posts[0]["report"].(map[string]any); !ok {
		t.Errorf("the v2 POST carries no rules report: %v", posts[0])
	}

	// history: three versions, and -at each time gives its body.
	out, _, code := runCLI(t, srv, "history", "-store", store, "-format", "json", srv.URL)
	var h struct {
		Versions []struct {
			Seq     int
			Status  int
			Outcome string
			Time    time.Time
		}
	}
	if err := json.Unmarshal([]byte(out), &h); err != nil || code != exitOK {
		t.Fatalf("history: exit %d, %v\n%s", code, err, out)
	}
	if len(h.Versions) != 3 || h.Versions[2].Status != 503 || h.Versions[2].Outcome != "unreachable" {
		t.Fatalf("history: %+v", h.Versions)
	}
	for _, tc := range []struct {
		at   time.Time
		body string
		code int
	}{
		{h.Versions[0].Time.Add(-time.Second), "", exitFinding},
		{h.Versions[0].Time, watchV1, exitOK},
		{h.Versions[1].Time.Add(-time.Nanosecond), watchV1, exitOK},
		{h.Versions[1].Time, watchV2, exitOK},
		{h.Versions[2].Time.Add(time.Hour), "", exitOK},
	} {
		out, errs, code := runCLI(t, srv, "history", "-store", store, "-at", tc.at.Format(time.RFC3339Nano), srv.URL)
		if code != tc.code || out != tc.body {
			t.Errorf("-at %s: exit %d, body %q, want %d, %q\n%s", tc.at, code, out, tc.code, tc.body, errs)
		}
	}
	// The 503 an hour in: Google still reads complete disallow.
	_, errs, _ := runCLI(t, srv, "history", "-store", store, "-at", h.Versions[2].Time.Add(time.Hour).Format(time.RFC3339Nano), srv.URL)
	if !strings.Contains(errs, "google robots: robots.txt unreachable: complete disallow") {
		t.Errorf("-at an hour into the 503:\n%s", errs)
	}
	// 13 hours in: Google uses the last good copy (version 2).
	_, errs, _ = runCLI(t, srv, "history", "-store", store, "-at", h.Versions[2].Time.Add(13*time.Hour).Format(time.RFC3339Nano), srv.URL)
	if !strings.Contains(errs, "google robots: robots.txt unreachable for 13 hours: the last good copy applies (version 2)") {
		t.Errorf("-at 13 hours into the 503:\n%s", errs)
	}

	// The list, opened again: the same three versions.
	out2, _, _ := runCLI(t, srv, "history", "-store", store, "-format", "json", srv.URL)
	if out2 != out {
		t.Errorf("a reopened store shows another history:\n%s\nthen\n%s", out, out2)
	}
	list, _, code := runCLI(t, srv, "history", "-store", store)
	if code != exitOK || !strings.Contains(list, "$SERVER") || !strings.Contains(list, "  3  ") {
		t.Errorf("history without a site: exit %d\n%s", code, list)
	}
}

// TestWebhookRetries: a receiver that fails twice (503) gets the report
// on the third try; one that refuses it (400) is not asked again; a
// report that cannot be delivered in time does not hold the command.
func TestWebhookRetries(t *testing.T) {
	rep := &siteReport{Site: "https://example.com", Changed: true}

	hook := &hookReceiver{fail: 2}
	srv := httptest.NewServer(hook)
	defer srv.Close()
	var log strings.Builder
	h := newWebhook(srv.URL, &log)
	h.backoff = time.Millisecond
	h.send("change", rep)
	h.close(time.Minute)
	if got := hook.got(); len(got) != 1 || got[0]["site"] != "https://example.com" || got[0]["event"] != "change" {
		t.Errorf("after two 503s: %v; log %q", got, log.String())
	}

	var asked int
	var mu sync.Mutex
	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked++
		mu.Unlock()
		w.WriteHeader(http.StatusBadRequest)
	}))
	defer refuse.Close()
	log.Reset()
	h = newWebhook(refuse.URL, &log)
	h.backoff = time.Millisecond
	h.send("change", rep)
	h.close(time.Minute)
	if asked != 1 || !strings.Contains(log.String(), "HTTP 400: the receiver refused the report") {
		t.Errorf("a 400: asked %d times; log %q", asked, log.String())
	}

	// A receiver that never answers: close gives up after its wait.
	stuck := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-stuck }))
	defer hang.Close()
	defer close(stuck)
	log.Reset()
	h = newWebhook(hang.URL, &log)
	h.send("change", rep)
	h.send("change", rep)
	h.close(50 * time.Millisecond)
	if !strings.Contains(log.String(), "stopped waiting after 50ms; 1 more report not delivered") {
		t.Errorf("a receiver that hangs: log %q", log.String())
	}
}

// TestNextRun: each fetch of a site comes every D give or take a tenth.
func TestNextRun(t *testing.T) {
	now := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	seen := map[time.Duration]bool{}
	for range 1000 {
		d := nextRun(now, time.Hour).Sub(now)
		if d < 54*time.Minute || d >= 66*time.Minute {
			t.Fatalf("next run in %v, want 54m to 66m", d)
		}
		seen[d.Truncate(time.Minute)] = true
	}
	if len(seen) < 6 {
		t.Errorf("the jitter takes %d one-minute values of 12", len(seen))
	}
}

// TestWatchDaemon: with -every, the watcher fetches each site on its own
// schedule until its context ends, then stops without error; the store
// keeps one version of a file that does not change.
func TestWatchDaemon(t *testing.T) {
	var mu sync.Mutex
	hits := map[string]int{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		hits[r.Host]++
		if hits[r.Host] >= 3 {
			cancel()
		}
		io.WriteString(w, "User-agent: *\nDisallow: /x\n")
	}))
	defer srv.Close()
	store := filepath.Join(t.TempDir(), "h.db")
	st, err := history.Open(store, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	e := &env{ctx: ctx, stdin: strings.NewReader(""), stdout: &out, stderr: &errs}
	w := &watcher{e: e, store: st, fetcher: &fetch.Fetcher{Timeout: 5 * time.Second}}
	o, _ := fetch.ParseOrigin(srv.URL)
	sites := []watchSite{{arg: srv.URL, url: srv.URL, site: o.String(), every: 20 * time.Millisecond}}
	if err := w.daemon(ctx, sites); err != nil {
		t.Fatalf("daemon: %v\n%s", err, errs.String())
	}
	vs, err := st.Versions(o.String())
	if err != nil || len(vs) != 1 {
		t.Fatalf("versions %d, %v", len(vs), err)
	}
	if !strings.Contains(out.String(), "version 1 stored") || !strings.Contains(out.String(), "unchanged since version 1") {
		t.Errorf("output:\n%s", out.String())
	}
}

// TestWatchDamagedStore: robots history and robots logs report a damaged
// store and leave it; robots watch moves it aside, says where, and
// starts a new one. None of them crashes.
func TestWatchDamagedStore(t *testing.T) {
	site := &siteStates{}
	site.set(200, watchV1)
	srv := httptest.NewServer(site)
	defer srv.Close()
	dir := t.TempDir()
	store := filepath.Join(dir, "history.db")
	junk := bytes.Repeat([]byte("not a bbolt file "), 1000)
	if err := os.WriteFile(store, junk, 0o600); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runCLI(t, srv, "history", "-store", store, srv.URL)
	if code != exitError || !strings.Contains(errs, "-store "+store) {
		t.Errorf("history on a damaged store: exit %d\n%s", code, errs)
	}
	_, errs, code = runCLI(t, srv, "logs", "-store", store, "-site", srv.URL, os.DevNull)
	if code != exitError || !strings.Contains(errs, "-store "+store) {
		t.Errorf("logs on a damaged store: exit %d\n%s", code, errs)
	}
	if b, _ := os.ReadFile(store); !bytes.Equal(b, junk) {
		t.Errorf("a reader changed the damaged file")
	}
	out, errs, code := runCLI(t, srv, "watch", "-store", store, srv.URL)
	if code != exitOK || !strings.Contains(errs, "was damaged and is kept as "+store+".corrupt-") || !strings.Contains(out, "version 1 stored") {
		t.Errorf("watch on a damaged store: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	aside, _ := filepath.Glob(store + ".corrupt-*")
	if len(aside) != 1 {
		t.Fatalf("moved aside: %v", aside)
	}
	if b, _ := os.ReadFile(aside[0]); !bytes.Equal(b, junk) {
		t.Errorf("the file moved aside is not the damaged one")
	}
	_, errs, code = runCLI(t, srv, "history", "-store", filepath.Join(dir, "none.db"))
	if code != exitError || !strings.Contains(errs, "no such file (robots watch -store") {
		t.Errorf("history on a missing store: exit %d\n%s", code, errs)
	}
}

// TestWatchAssert: -assert checks robots assert's lines on each fetch;
// a pass whose assertions fail exits 1 and posts them, with the change
// when there is one.
func TestWatchAssert(t *testing.T) {
	site := &siteStates{}
	site.set(200, watchV1)
	srv := httptest.NewServer(site)
	defer srv.Close()
	hook := &hookReceiver{}
	hsrv := httptest.NewServer(hook)
	defer hsrv.Close()
	dir := t.TempDir()
	store := filepath.Join(dir, "h.db")
	spec := filepath.Join(dir, "site.assert")
	os.WriteFile(spec, []byte("GPTBot disallow /\nGooglebot allow /blog/\n"), 0o666)

	out, errs, code := runCLI(t, srv, "watch", "-store", store, "-assert", spec, "-webhook", hsrv.URL, srv.URL)
	if code != exitOK || !strings.Contains(out, "2 assertions: 2 hold, 0 fail") {
		t.Errorf("v1: exit %d\n%s\n%s", code, out, errs)
	}
	site.set(200, "User-agent: *\nDisallow: /private/\n")
	for pass := 2; pass <= 3; pass++ {
		out, errs, code = runCLI(t, srv, "watch", "-store", store, "-assert", spec, "-webhook", hsrv.URL, srv.URL)
		if code != exitFinding || !strings.Contains(out, spec+":1: GPTBot disallow /: got allowed") || !strings.Contains(out, "2 assertions: 1 holds, 1 fail") {
			t.Errorf("pass %d: exit %d\n%s\n%s", pass, code, out, errs)
		}
	}
	posts := hook.got()
	if len(posts) != 2 || posts[0]["event"] != "change" || posts[1]["event"] != "assertions" {
		t.Fatalf("posts: %v", posts)
	}
	a, _ := posts[1]["assertions"].(map[string]any)
	failing, _ := a["failing"].([]any)
	if a["fail"] != 1.0 || len(failing) != 1 {
		t.Errorf("the assertions posted: %v", a)
	}

	os.WriteFile(spec, []byte("GPTBot disalow /\n"), 0o666)
	_, errs, code = runCLI(t, srv, "watch", "-store", store, "-assert", spec, srv.URL)
	if code != exitError || !strings.Contains(errs, spec+":1:8: ") {
		t.Errorf("a bad spec: exit %d\n%s", code, errs)
	}
}

// TestWatchLargeChange: a change of thousands of rule lines shows the
// first ones in text and says how many more; the webhook gets the first
// hundred without the per-robot evidence when the whole passes 1 MiB; a
// version in UTF-16 says that robots find no rules in it.
func TestWatchLargeChange(t *testing.T) {
	site := &siteStates{}
	site.set(200, watchV1)
	srv := httptest.NewServer(site)
	defer srv.Close()
	hook := &hookReceiver{}
	hsrv := httptest.NewServer(hook)
	defer hsrv.Close()
	store := filepath.Join(t.TempDir(), "h.db")
	runCLI(t, srv, "watch", "-store", store, srv.URL)

	var big strings.Builder
	big.WriteString("User-agent: *\n")
	for i := range 3000 {
		fmt.Fprintf(&big, "Disallow: /section-%d/\n", i)
	}
	site.set(200, big.String())
	out, _, code := runCLI(t, srv, "watch", "-store", store, "-webhook", hsrv.URL, srv.URL)
	if code != exitFinding || !strings.Contains(out, "(2982 more rule lines; -format json lists them all)") {
		t.Errorf("exit %d\n%s", code, out)
	}
	posts := hook.got()
	if len(posts) != 1 {
		t.Fatalf("posts: %d", len(posts))
	}
	rep, _ := posts[0]["report"].(map[string]any)
	rules, _ := rep["rules"].([]any)
	if posts[0]["rules_omitted"] != 2902.0 || len(rules) != 100 || rep["families"] != nil {
		t.Errorf("the webhook's report: rules_omitted %v, %d rules, families %v", posts[0]["rules_omitted"], len(rules), rep["families"] != nil)
	}

	wide := []byte{0xff, 0xfe}
	for _, r := range "User-agent: *\nDisallow: /x\n" {
		wide = append(wide, byte(r), 0)
	}
	site.set(200, string(wide))
	out, _, _ = runCLI(t, srv, "watch", "-store", store, srv.URL)
	if !strings.Contains(out, "note: version 3 is UTF-16LE: robots read UTF-8 and find no rules in it (robots check: RB202)") {
		t.Errorf("a UTF-16 version:\n%s", out)
	}
}

// TestWebhookSignature: with ROBOTS_WEBHOOK_SECRET set, each POST of
// robots watch carries the HMAC-SHA256 of its body, which a receiver
// that knows the secret recomputes; without it, no signature is sent.
func TestWebhookSignature(t *testing.T) {
	site := &siteStates{}
	site.set(200, watchV1)
	srv := httptest.NewServer(site)
	defer srv.Close()
	var mu sync.Mutex
	var sigs []string
	var ok []bool
	hsrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m := hmac.New(sha256.New, []byte("s3cret"))
		m.Write(body)
		mu.Lock()
		sigs = append(sigs, r.Header.Get("X-Robots-Signature-256"))
		ok = append(ok, hmac.Equal([]byte(r.Header.Get("X-Robots-Signature-256")), []byte("sha256="+hex.EncodeToString(m.Sum(nil)))))
		mu.Unlock()
	}))
	defer hsrv.Close()
	store := filepath.Join(t.TempDir(), "h.db")
	runCLI(t, srv, "watch", "-store", store, srv.URL)

	t.Setenv("ROBOTS_WEBHOOK_SECRET", "s3cret")
	site.set(200, watchV2)
	runCLI(t, srv, "watch", "-store", store, "-webhook", hsrv.URL, srv.URL)
	t.Setenv("ROBOTS_WEBHOOK_SECRET", "")
	site.set(200, watchV1)
	runCLI(t, srv, "watch", "-store", store, "-webhook", hsrv.URL, srv.URL)

	mu.Lock()
	defer mu.Unlock()
	if len(sigs) != 2 || !ok[0] || !strings.HasPrefix(sigs[0], "sha256=") || sigs[1] != "" {
		t.Errorf("signatures %q, verified %v", sigs, ok)
	}
}
