package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestUsageURL: with -url, robots usage fetches each page as the robot
// would and reads its response: the Content-Usage header
// (draft-ietf-aipref-attach-05 §2) is the deciding source of ai-train,
// the site's tdmrep.json (TDMRep #sec-tdm-file) speaks where no header
// does, and robots.txt's Content-Signal line still decides search.
func TestUsageURL(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nContent-Signal: search=yes\nAllow: /\n")
		case "/.well-known/tdmrep.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `[{"location": "/reserved/*", "tdm-reservation": 1}]`)
		case "/page":
			w.Header().Set("Content-Usage", "train-ai=n")
			w.Header().Set("Tdm-Reservation", "1")
			fmt.Fprint(w, "<html><head><title>t</title></head><body>hi</body></html>")
		default:
			fmt.Fprint(w, "<html><body>other</body></html>")
		}
	}))
	defer site.Close()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"usage", "-url", site.URL, "-robot", "GPTBot", "/page", "/reserved/a"}, strings.NewReader(""), &stdout, &stderr)
	want := "/page\n  GPTBot       crawl yes (line 3)\n    search    yes  Content-Signal line 2\n    ai-input  none\n    ai-train  no   Content-Usage header\n\n" +
		"/reserved/a\n  GPTBot       crawl yes (line 3)\n    search    yes  Content-Signal line 2\n    ai-input  none\n    ai-train  no   tdmrep.json\n"
	if code != 0 || stdout.String() != want {
		t.Errorf("robots usage -url: exit %d\n%s\nstderr: %s\nwant:\n%s", code, stdout.String(), stderr.String(), want)
	}
}
