package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robotskit/robots/internal/apicore"
)

// TestPastedSameAnswer: the page's WebAssembly checker (internal/wasm)
// answers a request for a pasted file with apicore.Pasted; its answers
// are, status and octets, those of the API's handlers, for files with
// findings, every profile, intent fixes, usage lines, plain tokens, and
// the errors of a request.
func TestPastedSameAnswer(t *testing.T) {
	_, ts := newTest(t, Config{Version: "test", RateLimit: -1})
	usageSample := "User-agent: *\nDisallow: /private\nAllow: /private/ok\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /news/ train-ai=n\n\nUser-agent: Google-Extended\nDisallow: /\n"
	files := []string{sample, intentSample, usageSample, "", "\ufeffUser-agent: *\r\nDisallow: /a*b$\r\nCrawl-delay: 5\r\nSitemap: /s.xml\r\nHost: example.com\r\nNoindex: /x\n", strings.Repeat("Disallow: /x\n", 3)}
	var requests []struct{ route, body string }
	add := func(route, body string) { requests = append(requests, struct{ route, body string }{route, body}) }
	for _, f := range files {
		for _, extra := range []string{``, `, "profile": "rfc9309"`, `, "profile": "draft1996"`, `, "profile": "yandex"`, `, "all_robots": true`, `, "thorough": true`, `, "enable": ["all"]`, `, "enable": ["FX25"]`} {
			add("check", `{"robots": `+jsonString(f)+extra+`}`)
		}
		for _, extra := range []string{
			`, "urls": ["/", "/private/x", "/private/ok", "/news/a", "https://example.com/tmp?q"]`,
			`, "robots_list": ["Googlebot", "GPTBot", "AdsBot-Google", "YandexBot", "Applebot"], "urls": ["/", "/private"]`,
			`, "robots_list": ["GPTBot"], "agents": ["NoSuchBot"], "urls": ["/private/x"], "profile": "bing"`,
			`, "agents": ["x"], "urls": ["/a"], "profile": "strict1994"`,
		} {
			add("test", `{"robots": `+jsonString(f)+extra+`}`)
		}
	}
	for _, body := range []string{`{}`, `{"robots": `, `{"robot": "x"}`, `{"robots": ""} {}`, `{"robots": "", "profile": "altavista"}`,
		`{"robots": "", "enable": ["FX99"]}`, `{"robots": "", "url": "https://example.com/"}`, `[]`, ``} {
		add("check", body)
	}
	for _, body := range []string{`{"robots": ""}`, `{"robots": "", "urls": ["/"], "robots_list": ["Gogglebot"]}`, `{"robots": "", "urls": ["/"], "agents": [" "]}`,
		`{"robots": "", "urls": ["/"], "robots_list": ["` + strings.Repeat(`Googlebot", "`, 50) + `Googlebot"]}`, `{"urls": ["/"]}`, `{"robots": "", "urls": ["/"], "user_agent": "x"}`} {
		add("test", body)
	}
	// Past the bounds of the work and of the body.
	add("check", `{"robots": `+jsonString(strings.Repeat("#\n", apicore.MaxCheckLines+1))+`}`)
	add("check", `{"robots": `+jsonString(strings.Repeat("x", MaxBody))+`}`)
	add("test", `{"robots": `+jsonString(strings.Repeat("Disallow: /*a*a*a*a*a*a\n", 2000))+`, "urls": ["/`+strings.Repeat("a", 3000)+`"], "robots_list": ["Googlebot", "YandexBot", "bingbot"]}`)
	for i, rq := range requests {
		status, _, want := do(t, ts, "POST", "/api/v1/"+rq.route, "application/json", rq.body)
		got, gotBody := apicore.Pasted(rq.route, []byte(rq.body))
		if got != status || string(gotBody) != want {
			name := fmt.Sprintf("request %d (%s %.80q)", i, rq.route, rq.body)
			t.Errorf("%s: Pasted answers %d\n%.600s\nthe API %d\n%.600s", name, got, gotBody, status, want)
		}
	}
	t.Logf("%d requests answered alike", len(requests))
	// A site is the server's to fetch.
	if status, body := apicore.Pasted("test", []byte(`{"url": "https://example.com/", "urls": ["/"]}`)); status != 400 || !strings.Contains(string(body), "needs_server") {
		t.Errorf("a request with a url: %d %s", status, body)
	}
}
