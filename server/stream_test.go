package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/page"
	"github.com/robotskit/robots/syntax"
)

// encoded is v as json.Encoder with SetIndent("", "  ") writes it, as the
// server wrote every answer before it streamed them.
func encoded(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.Encode(v)
	return b.String()
}

func streamed(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	if err := encodeJSON(context.Background(), &b, v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestEncodeJSON: the streamed answers are, octet for octet, what
// json.Encoder writes, for every shape the API answers.
func TestEncodeJSON(t *testing.T) {
	src := []byte("User-agent: *\nDisalow: /<tmp>\nDisallow: admin/\n\nUser-agent: GPTBot\nDisallow: /\n")
	cfg := &lint.Config{AllRobots: true}
	ds := lint.Fold(lint.Run(syntax.Parse("robots.txt", src), cfg))
	fr := lint.Fix(src, &lint.FixOptions{Config: *cfg, Enable: []string{"all"}})
	fixed, text := string(fr.Output), string(src)
	full := &wire.CheckResponse{Diagnostics: wire.Diagnostics(ds), Fixed: &fixed, Fetch: &wire.FetchTrace{Status: 200}, Robots: &text,
		Unfixed: wire.Leftovers(lint.Leftovers(fr, cfg)), Changes: change.Compare(src, fr.Output, nil)}
	for name, v := range map[string]any{
		"check":       full,
		"check empty": &wire.CheckResponse{Diagnostics: []wire.Diagnostic{}},
		"check nil":   wire.CheckResponse{},
		"test":        &wire.TestResponse{Results: []wire.TestResult{{Robot: "Googlebot", URL: "/a&b", Rule: "Disallow: /a", Line: 2}, {Robot: "x", URL: "/\u2028"}}},
		"test empty":  &wire.TestResponse{Results: []wire.TestResult{}, Fetch: &wire.FetchTrace{Status: 404}},
		"error":       wire.ErrorResponse{Error: wire.ErrorBody{Code: "x", Message: "<y>"}},
		"map":         map[string]string{"status": "ok"},
		"report":      &page.Report{URL: "http://example.com/"},
	} {
		if got, want := streamed(t, v), encoded(v); got != want {
			t.Errorf("%s: streamed\n%s\nwant\n%s", name, got, want)
		}
	}
	// The answers are counted as they are written.
	n, over, err := answerSize(context.Background(), full, 0)
	if err != nil || over || n != int64(len(encoded(full))) {
		t.Errorf("answerSize: %d %v %v, want %d", n, over, err, len(encoded(full)))
	}
	if _, over, _ := answerSize(context.Background(), full, 100); !over {
		t.Error("answerSize: not over a limit of 100")
	}
	for _, s := range []string{"", "a", `"\`, "\n\r\t\x01", "<>&", "\u2028\u2029", "é€", "\xff\xfe", "a\xc3"} {
		b, _ := json.Marshal(s)
		if jsonLen(s) != len(b) {
			t.Errorf("jsonLen(%q) = %d, want %d", s, jsonLen(s), len(b))
		}
	}
}

// TestStreamStops: an answer stops being written when its context ends.
func TestStreamStops(t *testing.T) {
	results := make([]wire.TestResult, 1000)
	for i := range results {
		results[i] = wire.TestResult{Robot: fmt.Sprint(i)}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var b bytes.Buffer
	if err := encodeJSON(ctx, &b, &wire.TestResponse{Results: results}); err == nil || strings.Count(b.String(), "robot") > 64 {
		t.Errorf("%v after %d results", err, strings.Count(b.String(), "robot"))
	}
}
