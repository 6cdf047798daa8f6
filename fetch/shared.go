package fetch

import (
	"bytes"
	"hash/maphash"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/robotskit/robots"
)

// A sharedBody is a robots.txt body that entries share: one copy of the
// bytes, and the rules compiled from them for each profile that asked.
// Many origins serve the same file (a host's or a CMS's default, an empty
// file), so a cache of many origins holds each such file, and its rules,
// once. Shared bodies are found by their content (see shareBody) and live
// as long as an entry or a result refers to them. A sharedBody does not
// change but for its list of compiled rules, which only grows.
type sharedBody struct {
	// body is the bytes, owned by the sharedBody and never written;
	// cap(body) == len(body), so that an append to it copies.
	body []byte
	// rules lists the rules compiled so far, one per profile.
	rules atomic.Pointer[bodyRules]
}

// bodyRules is one profile's rules of a shared body, in a list.
type bodyRules struct {
	profile robots.Profile
	rules   *robots.Rules
	next    *bodyRules
}

// compiled returns the rules of the body for profile p, compiling them
// the first time. Goroutines that ask at once may each compile, but all
// get the rules of the one that recorded its own first.
func (s *sharedBody) compiled(p robots.Profile) *robots.Rules {
	head := s.rules.Load()
	if r := findRules(head, p); r != nil {
		return r
	}
	n := &bodyRules{profile: p, rules: robots.Parse(s.body, p)}
	for {
		n.next = head
		if s.rules.CompareAndSwap(head, n) {
			return n.rules
		}
		head = s.rules.Load()
		if r := findRules(head, p); r != nil {
			return r
		}
	}
}

func findRules(l *bodyRules, p robots.Profile) *robots.Rules {
	for ; l != nil; l = l.next {
		if l.profile == p {
			return l.rules
		}
	}
	return nil
}

// bodies finds the shared bodies in use by their content: by a hash of the
// bytes, and then by the bytes themselves, so that two bodies whose hashes
// collide are never mixed. It holds them weakly: a body that no entry or
// result uses any more is collected, and a cleanup then removes it, so
// that the table holds only the bodies in use. m has a body per hash;
// more has the others of the same hash, which a 64-bit hash makes rare.
var bodies = struct {
	mu   sync.Mutex
	seed maphash.Seed
	m    map[uint64]weak.Pointer[sharedBody]
	more map[uint64][]weak.Pointer[sharedBody]
}{seed: maphash.MakeSeed(), m: make(map[uint64]weak.Pointer[sharedBody]), more: make(map[uint64][]weak.Pointer[sharedBody])}

// bodyKey is where a shared body is in bodies, for its cleanup.
type bodyKey struct {
	sum uint64
	w   weak.Pointer[sharedBody]
}

// shareBody returns the shared body whose bytes are those of body, making
// one when none is in use: with a copy of body, or with body itself when
// the caller owns it and gives it up (owned).
func shareBody(body []byte, owned bool) *sharedBody {
	sum := maphash.Bytes(bodies.seed, body)
	bodies.mu.Lock()
	defer bodies.mu.Unlock()
	first, ok := bodies.m[sum]
	if ok {
		if s := first.Value(); s != nil && bytes.Equal(s.body, body) {
			return s
		}
	}
	for _, w := range bodies.more[sum] {
		if s := w.Value(); s != nil && bytes.Equal(s.body, body) {
			return s
		}
	}
	s := &sharedBody{body: body[:len(body):len(body)]}
	if !owned {
		s.body = make([]byte, len(body))
		copy(s.body, body)
	}
	w := weak.Make(s)
	if !ok || first.Value() == nil {
		// A collected body's cleanup, still to come, removes only its
		// own weak pointer.
		bodies.m[sum] = w
	} else {
		bodies.more[sum] = append(bodies.more[sum], w)
	}
	runtime.AddCleanup(s, forgetBody, bodyKey{sum, w})
	return s
}

// forgetBody removes a collected shared body from bodies.
func forgetBody(k bodyKey) {
	bodies.mu.Lock()
	defer bodies.mu.Unlock()
	if w, ok := bodies.m[k.sum]; ok && w == k.w {
		delete(bodies.m, k.sum)
		return
	}
	ws := bodies.more[k.sum]
	if i := slices.Index(ws, k.w); i >= 0 {
		ws = slices.Delete(ws, i, i+1)
	}
	if len(ws) == 0 {
		delete(bodies.more, k.sum)
	} else {
		bodies.more[k.sum] = ws
	}
}
