package page

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestInspectStops: a page with thousands of links on a site whose
// robots.txt has thousands of wildcard rules costs seconds of matching;
// when the inspection's time is up, the parsing and the links' verdicts
// stop, and the report says it was stopped. When the caller's context
// ends, Inspect returns its error.
func TestInspectStops(t *testing.T) {
	var rb strings.Builder
	rb.WriteString("User-agent: *\n")
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&rb, "Disallow: /*%x*q\n", i)
	}
	// Paths of every hex digit and no "q": each rule reads the whole
	// path before it fails.
	rnd := rand.New(rand.NewPCG(1, 2))
	var pg strings.Builder
	pg.WriteString("<html><head><title>links</title></head><body>\n")
	for i := 0; i < 1000; i++ {
		pg.WriteString(`<a href="/`)
		for range 1800 {
			pg.WriteByte("0123456789abcdef"[rnd.IntN(16)])
		}
		fmt.Fprintf(&pg, "\">%d</a>\n", i)
	}
	srv := site(t, rb.String(), map[string]http.HandlerFunc{"/links": html(pg.String())})

	in := &Inspector{Now: func() time.Time { return now }, Timeout: 300 * time.Millisecond}
	start := time.Now()
	rep, err := in.Inspect(context.Background(), srv.URL+"/links", RobotNamed("Googlebot"))
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if took > 2*time.Second {
		t.Errorf("the inspection took %v with a 300ms timeout", took)
	}
	if !strings.Contains(rep.Error, "stopped") {
		t.Errorf("the report does not say it was stopped: Error %q, %d links", rep.Error, len(rep.Links))
	}
	unchecked := 0
	for _, l := range rep.Links {
		if l.Allowed == nil {
			unchecked++
		}
	}
	if len(rep.Links) > 0 && unchecked == 0 {
		t.Errorf("every one of %d links has a verdict", len(rep.Links))
	}

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	in.Timeout = time.Minute
	start = time.Now()
	if _, err := in.Inspect(ctx, srv.URL+"/links", RobotNamed("Googlebot")); err == nil {
		t.Errorf("Inspect under an ended context: no error")
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Inspect returned %v after its context ended", took)
	}
}
