package lines

import "testing"

// TestProductToken: RFC 9309 §2.2.1's product token is the leading run of
// letters, '_' and '-'.
func TestProductToken(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Googlebot/2.1", "Googlebot"},
		{"MJ12bot", "MJ"},
		{"360Spider", ""},
		{"archive.org_bot", "archive"},
		{"Google-Extended", "Google-Extended"},
		{"*", ""},
		{"", ""},
		{"ia_archiver (+http://www.alexa.com/site/help/webmasters)", "ia_archiver"},
	} {
		if got := ProductToken(tt.in); got != tt.want {
			t.Errorf("ProductToken(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
