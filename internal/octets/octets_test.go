package octets

import "testing"

// Eq must mark the first occurrence exactly, whatever the octets around it
// (the borrow of the subtraction may mark octets above, never below).
func TestEqFirst(t *testing.T) {
	vals := []byte{0, 1, 0x7F, 0x80, 0x81, 0xFE, 0xFF, '#', ':', '\n'}
	for _, c := range []byte{0, '#', ':', '\n', 0xFF, 0x80} {
		for pos := 0; pos < 8; pos++ {
			for _, fill := range vals {
				if fill == c {
					continue
				}
				b := []byte{fill, fill, fill, fill, fill, fill, fill, fill}
				b[pos] = c
				for above := pos + 1; above < 8; above++ {
					b[above] = c - 1 // a borrow-prone neighbour
				}
				s := string(b)
				m := Eq(Load(s, 0), c)
				if m == 0 || First(m) != pos {
					t.Fatalf("Eq(%q, %#x): first = %d (mask %#x), want %d", s, c, First(m), m, pos)
				}
			}
		}
	}
	if m := Eq(Load("abcdefgh", 0), '#'); m != 0 {
		t.Errorf("Eq(abcdefgh, '#') = %#x, want 0", m)
	}
}

func TestLoad(t *testing.T) {
	if got := Load("xx12345678", 2); got != 0x3837363534333231 {
		t.Errorf("Load = %#x", got)
	}
}

// AnyBelow must see an octet below c at any position, whatever the others.
func TestAnyBelow(t *testing.T) {
	for _, c := range []byte{1, 0x0E, 0x40, 0x80} {
		for x := 0; x < 256; x++ {
			for pos := 0; pos < 8; pos++ {
				for _, fill := range []byte{c, c + 1, 0x7F, 0x80, 0xFF} {
					b := []byte{fill, fill, fill, fill, fill, fill, fill, fill}
					b[pos] = byte(x)
					want := false
					for _, o := range b {
						want = want || o < c
					}
					if got := AnyBelow(Load(string(b), 0), c); got != want {
						t.Fatalf("AnyBelow(%q, %#x) = %v, want %v", b, c, got, want)
					}
				}
			}
		}
	}
}

func TestBelow(t *testing.T) {
	for k := 0; k < 8; k++ {
		m := uint64(0x80)<<(8*k) | high // marks at k and above
		if got, want := Below(m&^(1<<(8*k+7)-1)), uint64(1)<<(8*k+7)-1; got != want {
			t.Errorf("Below(mark at %d) = %#x, want %#x", k, got, want)
		}
	}
	if Below(0) != ^uint64(0) {
		t.Errorf("Below(0) = %#x, want all bits", Below(0))
	}
}

func TestEqualFold(t *testing.T) {
	name := Load("user-age", 0)
	for _, tt := range []struct {
		k    string
		want bool
	}{
		{"user-age", true}, {"USER-AGE", true}, {"uSeR-aGe", true},
		{"user\ragE", false}, // '-' must be equal: '\r'|0x20 is '-'
		{"user_age", false}, {"usfr-age", false}, {"user-ag ", false},
	} {
		if got := EqualFold(Load(tt.k, 0), name); got != tt.want {
			t.Errorf("EqualFold(%q, user-age) = %v, want %v", tt.k, got, tt.want)
		}
	}
}
