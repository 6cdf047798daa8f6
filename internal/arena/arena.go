// Package arena builds many short strings in a few large arrays instead
// of one allocation each: the checker's candidate URLs and agent keys,
// the probe paths of package probe.
package arena

import (
	"strings"
	"unsafe"
)

// An Arena keeps the strings it builds in a few large arrays. A string it
// returns stays valid for as long as it is referenced: the bytes under it
// are never written again, since the arena only appends and starts a new
// array when one is full. The zero Arena is ready; a nil *Arena allocates
// each string on its own. An Arena is not safe for concurrent use.
type Arena struct{ buf []byte }

// chunk is the size of an Arena's first array.
const chunk = 4 << 10

// grow makes room for n more bytes.
func (a *Arena) grow(n int) {
	if cap(a.buf)-len(a.buf) < n {
		a.buf = make([]byte, 0, max(2*cap(a.buf), chunk, n))
	}
}

// done returns the bytes appended since start as a string.
func (a *Arena) done(start int) string {
	if len(a.buf) == start {
		return ""
	}
	return unsafe.String(&a.buf[start], len(a.buf)-start)
}

// Concat returns x+y.
func (a *Arena) Concat(x, y string) string {
	if a == nil {
		return x + y
	}
	a.grow(len(x) + len(y))
	start := len(a.buf)
	a.buf = append(append(a.buf, x...), y...)
	return a.done(start)
}

// Concat3 returns x+y+z.
func (a *Arena) Concat3(x, y, z string) string {
	if a == nil {
		return x + y + z
	}
	a.grow(len(x) + len(y) + len(z))
	start := len(a.buf)
	a.buf = append(append(append(a.buf, x...), y...), z...)
	return a.done(start)
}

// ReplaceStars returns v with every '*' replaced by repl and, when
// suffix is not "", suffix appended.
func (a *Arena) ReplaceStars(v, repl, suffix string) string {
	if a == nil {
		return strings.ReplaceAll(v, "*", repl) + suffix
	}
	if strings.IndexByte(v, '*') < 0 && suffix == "" {
		return v
	}
	a.grow(len(v) + strings.Count(v, "*")*len(repl) + len(suffix))
	start := len(a.buf)
	for i := 0; i < len(v); i++ {
		if v[i] == '*' {
			a.buf = append(a.buf, repl...)
		} else {
			a.buf = append(a.buf, v[i])
		}
	}
	a.buf = append(a.buf, suffix...)
	return a.done(start)
}

// Lower returns s in ASCII lower case.
func (a *Arena) Lower(s string) string {
	i := 0
	for i < len(s) && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	if a == nil {
		return strings.ToLower(s)
	}
	a.grow(len(s))
	start := len(a.buf)
	for j := 0; j < len(s); j++ {
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		a.buf = append(a.buf, c)
	}
	return a.done(start)
}
