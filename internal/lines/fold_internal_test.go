package lines

import (
	"strings"
	"testing"
)

// equalLower folds case eight octets at a time; it must agree with
// strings.EqualFold restricted to ASCII for every octet in every position
// of every name it is used with.
func TestEqualLower(t *testing.T) {
	names := append(lowerNames[1:], "user agent", "useragent", "dissallow", "site-map")
	asciiFold := func(a, b string) bool {
		if len(a) != len(b) {
			return false
		}
		for i := 0; i < len(a); i++ {
			x, y := a[i], b[i]
			if 'A' <= x && x <= 'Z' {
				x += 'a' - 'A'
			}
			if 'A' <= y && y <= 'Z' {
				y += 'a' - 'A'
			}
			if x != y {
				return false
			}
		}
		return true
	}
	for _, name := range names {
		if name != strings.ToLower(name) {
			t.Fatalf("%q is not lower case", name)
		}
		for pos := 0; pos < len(name); pos++ {
			for c := 0; c < 256; c++ {
				b := []byte(strings.ToUpper(name))
				b[pos] = byte(c)
				k := string(b)
				if got, want := equalLower(k, name), asciiFold(k, name); got != want {
					t.Fatalf("equalLower(%q, %q) = %v, want %v", k, name, got, want)
				}
			}
		}
		if equalLower(name[1:], name) || equalLower(name+"x", name) {
			t.Errorf("equalLower accepts a key of another length than %q", name)
		}
	}
}
