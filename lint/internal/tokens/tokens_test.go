package tokens_test

import (
	"strings"
	"testing"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/lint/internal/testenv"
	"github.com/robotskit/robots/lint/internal/tokens"
	"github.com/robotskit/robots/syntax"
)

func TestKnownTokens(t *testing.T) {
	for _, tc := range []struct {
		s          string
		known, goo bool
	}{
		{"Googlebot", true, true},
		{"googlebot-image", true, true},
		{"GPTBot", true, false},
		{"360Spider", true, false},
		{"Googelbot", false, false},
		{"adsbot-google", true, true},
	} {
		if got := tokens.IsKnown(tc.s); got != tc.known {
			t.Errorf("IsKnown(%q) = %v, want %v", tc.s, got, tc.known)
		}
		if got := tokens.GoogleOnly(strings.ToLower(robots.LineToken(tc.s))); got != tc.goo && tc.s != "360Spider" {
			t.Errorf("GoogleOnly(%q) = %v, want %v", tc.s, got, tc.goo)
		}
	}
	for _, k := range tokens.Known() {
		if s, ok := tokens.Spelling(k); !ok || s == "" {
			t.Errorf("Spelling(%q) = %q, %v", k, s, ok)
		}
	}
}

// TestCorpus looks up the product token of every User-agent line of the
// -corpus folder: a token is known exactly when it has a spelling, and
// that spelling is the token's.
func TestCorpus(t *testing.T) {
	names, srcs := testenv.Corpus(t)
	for i, name := range names {
		f := syntax.Parse(name, srcs[i])
		for k := range f.Lines {
			l := &f.Lines[k]
			if l.Field != syntax.UserAgent {
				continue
			}
			tok := strings.ToLower(robots.LineToken(f.Text(l.Value)))
			s, ok := tokens.Spelling(tok)
			if ok != tokens.IsKnown(tok) || ok && strings.ToLower(s) != tok {
				t.Errorf("%s:%d: %q: spelling %q %v, known %v", name, k+1, tok, s, ok, tokens.IsKnown(tok))
			}
		}
	}
}
